import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { build } from 'esbuild';

export interface Target {
  child: ChildProcess;
  info: Record<string, string | number>;
  /** Peak resident memory of the process so far (VmHWM), in MB. */
  peakRssMb(): number;
  stop(): Promise<void>;
}

/** Starts a benchmark target script in its own Node process and waits for its READY line. */
export async function startTarget(
  script: string,
  env: Record<string, string>,
  opts: { readyTimeoutMs?: number } = {},
): Promise<Target> {
  // Run the target as deployed (`npm start` runs an esbuild bundle under plain Node): no TypeScript loader thread
  // inflating its memory or CPU figures. The bundle sits one level below the root like dist/main.mjs.
  const bundle = `dist/${basename(script, '.ts')}.mjs`;
  await build({
    entryPoints: [script],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  const child = spawn(process.execPath, [bundle], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d) => {
    err += String(d);
  });
  const info = await new Promise<Record<string, string | number>>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`target ${script} did not start: ${err}`)),
      opts.readyTimeoutMs ?? 60_000,
    );
    child.stdout?.on('data', (d) => {
      out += String(d);
      const m = /READY (\{.*\})\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(JSON.parse(m[1] as string));
      }
    });
    child.once('exit', (code) => reject(new Error(`target ${script} exited ${code}: ${err}`)));
  });
  return {
    child,
    info,
    peakRssMb() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? '0');
      return Math.round(kb / 102.4) / 10;
    },
    async stop() {
      child.removeAllListeners('exit');
      const done = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await done;
    },
  };
}
