import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { build } from 'esbuild';

/** The real service as deployed: server/main.ts bundled like `npm start` does, run by plain Node in its own process. */
export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
  /** Waits for the service to print that it listens (rejects with its output if it exits first). */
  listening(ms?: number): Promise<void>;
}

/**
 * Bundles server/main.ts (or another entry, like server/admin-cli.ts) into dist/ as scripts/build-server.mjs does
 * (one level below the root, so it finds public/), under a name of its own; returns its path and a cleanup.
 */
export async function bundleService(entry = 'server/main.ts'): Promise<{ path: string; dispose(): void }> {
  const path = `dist/test-${randomBytes(4).toString('hex')}.mjs`;
  await build({
    entryPoints: [entry],
    outfile: path,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return { path, dispose: () => rmSync(path, { force: true }) };
}

/** A port free right now on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const p = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return p;
}

/** Starts the bundled service with `env` on top of a quiet default configuration, on a free port unless given. */
export async function spawnService(bundle: string, env: Record<string, string>): Promise<ServiceProcess> {
  const port = env.PORT ?? String(await freePort());
  const child = spawn(process.execPath, [bundle], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_SECOND: '0',
      ...env,
      PORT: port,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => {
    out += String(d);
  });
  child.stderr?.on('data', (d) => {
    err += String(d);
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    stdout: () => out,
    stderr: () => err,
    exited,
    async listening(ms = 30_000) {
      const end = Date.now() + ms;
      while (!out.includes('Service listening on')) {
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new Error(`service exited (${child.exitCode ?? child.signalCode}): ${err}${out}`);
        }
        if (Date.now() > end) throw new Error(`service did not listen within ${ms} ms: ${err}${out}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
  };
}
