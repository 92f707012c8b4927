import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from './until.js';

/** Debian's caddy (scripts/ensure-caddy.sh installs it for `npm test`). */
export const CADDY_PATH = process.env.CADDY_PATH ?? '/usr/bin/caddy';

/**
 * README's own Caddyfile (the block under "Caddy (certificates automatic"), so a test proves the example an operator
 * copies rather than one of its own.
 */
export function readmeCaddyfile(): string {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const m = /Caddy \(certificates automatic[^\n]*\n\n```\n([\s\S]*?)```/.exec(readme);
  if (!m?.[1]) throw new Error('README has no Caddyfile example under "Caddy (certificates automatic"');
  return m[1];
}

export interface Caddy {
  url: string;
  close(): Promise<void>;
}

/**
 * Runs caddy with README's Caddyfile, its site address `pay.example.com` swapped for plain HTTP on `port` (no
 * certificates in a test) and its upstream `127.0.0.1:8787` for `upstream`. The admin endpoint is off and caddy's
 * state lies in a temporary directory, so runs in parallel never meet.
 */
export async function startReadmeCaddy(port: number, upstream: string): Promise<Caddy> {
  if (!existsSync(CADDY_PATH)) throw new Error(`caddy is not installed at ${CADDY_PATH} (apt-get install caddy)`);
  const dir = mkdtempSync(join(tmpdir(), 'caddy-'));
  const site = readmeCaddyfile()
    .replace('pay.example.com', `http://127.0.0.1:${port}`)
    .replace('127.0.0.1:8787', upstream);
  const file = join(dir, 'Caddyfile');
  writeFileSync(file, `{\n\tadmin off\n}\n\n${site}`);
  const child: ChildProcess = spawn(CADDY_PATH, ['run', '--config', file, '--adapter', 'caddyfile'], {
    env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (d: Buffer) => {
    log = (log + d.toString()).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      // Caddy drains open connections (an event stream never ends) before it exits on SIGTERM: not in a test.
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await until(
      async () => {
        if (child.exitCode !== null) throw new Error(`caddy exited ${child.exitCode}: ${log}`);
        return fetch(`${url}/healthz`).then(
          () => true,
          () => false,
        );
      },
      (up) => up,
      15_000,
    );
  } catch (e) {
    await close();
    throw e;
  }
  return { url, close };
}
