/**
 * The Medusa proof's own kit (test/run.ts): paths, the checks' tally, polling, JSON over HTTP, the Medusa CLI and the
 * storefront's origin.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, resolve } from 'node:path';
export const PKG = resolve(__dirname, '..');
export const ROOT = resolve(PKG, '../..');
export const APP = join(PKG, 'test/app');
export const PG_BASE = process.env.MEDUSA_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432';
export const PROVIDER = 'pp_crypto_crypto';
export const started = Date.now();

/** What the checks found: the summary line and the exit code. */
export const tally = { passed: 0, failed: 0 };
export function check(name: string, ok: boolean, detail = ''): void {
  if (ok) tally.passed++;
  else tally.failed++;
  process.stdout.write(`${ok ? 'ok' : 'FAIL'} - ${name}${ok || !detail ? '' : `: ${detail}`}\n`);
}
export const say = (s: string) => process.stdout.write(`# ${s} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until<T>(what: string, fn: () => Promise<T | undefined | false>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(500);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the test reads the APIs' JSON as it comes
export type Json = any;
export async function http(
  url: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { 'content-type': 'application/json', ...init.headers },
    ...(init.body === undefined ? {} : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
  });
  const text = await res.text();
  let json: Json = null;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, json, text };
}

export const medusaEnv = (db: string, extra: Record<string, string>) => ({
  ...process.env,
  NODE_ENV: 'production',
  MEDUSA_DISABLE_TELEMETRY: 'true',
  DO_NOT_TRACK: '1',
  DATABASE_URL: db,
  ...extra,
});
export const medusaBin = join(PKG, 'node_modules/.bin/medusa');

export function medusaCli(args: string[], env: NodeJS.ProcessEnv): void {
  const r = spawnSync(medusaBin, args, { cwd: APP, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`medusa ${args.join(' ')} failed: ${r.stderr}${r.stdout.slice(-3000)}`);
}

/** Serves storefront/ as a shop's own origin would (Medusa's STORE_CORS names it). */
export function serveStorefront(port: number): Promise<Server> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' };
  const server = createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/+/, '') || 'checkout.html';
    if (!/^[\w.-]+$/.test(name)) return void res.writeHead(404).end();
    try {
      const body = readFileSync(join(PKG, 'storefront', name));
      res.writeHead(200, { 'content-type': types[extname(name)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((r) => server.listen(port, '127.0.0.1', () => r(server)));
}

/** An error that ended the proof early: one failure, its stack printed. */
export function fail(e: unknown): void {
  tally.failed++;
  process.stdout.write(`FAIL - ${e instanceof Error ? e.stack : e}\n`);
}

/** Prints "medusa: N passed, M failed" and exits 1 on any failure. */
export function finish(): never {
  process.stdout.write(
    `medusa: ${tally.passed} passed, ${tally.failed} failed (${((Date.now() - started) / 1000).toFixed(0)} s)\n`,
  );
  process.exit(tally.failed > 0 ? 1 : 0);
}
