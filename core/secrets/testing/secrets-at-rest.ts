import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Secret, TOTP } from 'otpauth';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import { dashFetch } from '../../../dashboard-api/testing/client.js';
import { bundleService, type ServiceProcess, spawnService } from '../../../server/testing/service-process.js';
import { freshStoreUrl } from '../../../server/testing/store.js';
import { openStore } from '../../store/db.js';
import { startReceiver, type TestReceiver } from '../../webhooks/testing/receiver.js';
import { newKeyText } from '../keyring.js';
import { listStoredSecrets } from '../stored-secrets.js';

/*
 * The secrets-at-rest suites' shared set-up (issue 27, item 4): the bundled server and admin CLI run in their own
 * processes on a real store (a SQLite file, or PostgreSQL with TEST_DATABASE_URL), a webhook receiver, a first key
 * file, and what a thief would take of the store. Each suite file calls setUpSecretsAtRest() once; the bindings below
 * are live, assigned in its beforeAll.
 */

export const run = promisify(execFile);
export const dir = mkdtempSync(join(tmpdir(), 'cps-secrets-'));
export const key1 = join(dir, 'key-1');
export const key2 = join(dir, 'key-2');
export let storeUrl: Awaited<ReturnType<typeof freshStoreUrl>>;
export let main: { path: string; dispose(): void };
export let cli: { path: string; dispose(): void };
export let rcv: TestReceiver;
export let svc: ServiceProcess | undefined;
export const known = {
  webhookSecret: '',
  secretKey: '',
  totpSecret: '',
  viewKey: '',
  xmrAddress: '',
  xmrMerchant: '',
  demoPassword: '',
};

export const isPostgres = () => !storeUrl.url.startsWith('sqlite:');

/** The admin CLI as the image runs it, on the test's store with `env` (the secrets key) on top. */
export async function admin(args: string[], env: Record<string, string>) {
  const base = { ...process.env, DATABASE_URL: storeUrl.url, SECRETS_KEY: '', SECRETS_KEY_FILE: '' };
  try {
    const r = await run(process.execPath, [cli.path, ...args], { env: { ...base, ...env } });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

export async function start(env: Record<string, string>): Promise<ServiceProcess> {
  const s = await spawnService(main.path, {
    DATABASE_URL: storeUrl.url,
    SECRETS_KEY: '',
    SECRETS_KEY_FILE: '',
    // The store holds a live merchant (its Monero view key): a live set-up needs its public origin.
    PUBLIC_URL: 'https://pay.example.com',
    ...env,
  });
  svc = s;
  return s;
}

export async function stop(): Promise<void> {
  if (svc && svc.child.exitCode === null && svc.child.signalCode === null) svc.child.kill('SIGTERM');
  await svc?.exited;
  svc = undefined;
}

/** A start that must fail: its exit code and what it printed on standard error. */
export async function refusedStart(env: Record<string, string>): Promise<{ code: number | string; lines: string[] }> {
  const s = await start(env);
  const code = await s.exited;
  svc = undefined;
  return { code, lines: s.stderr().trim().split('\n') };
}

export const codeAt = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at });

/** Sends a test webhook event and waits for the receiver to get it; answers whether its signature checked. */
export async function testEventVerified(s: ServiceProcess): Promise<boolean> {
  const before = rcv.received.length;
  const r = await fetch(`${s.url}/api/v1/webhook-deliveries/test`, {
    method: 'POST',
    headers: { 'x-api-key': known.secretKey },
  });
  expect(r.status).toBe(202);
  const all = await rcv.waitFor((got) => got.length > before);
  return all.slice(before).every((x) => x.verified);
}

/** Signs in as the demo owner with the password and a TOTP code (of the next time step: never one taken before). */
export async function signInWithCode(s: ServiceProcess): Promise<number> {
  const first = await dashFetch(s.url, '/session', {
    body: { email: 'demo@example.com', password: known.demoPassword },
  });
  expect(first.status).toBe(200);
  const pending: string = first.json.data.two_factor.pending_token;
  const code = codeAt(known.totpSecret, Date.now() + 30_000);
  const second = await dashFetch(s.url, '/session/two-factor', { body: { pending_token: pending, code } });
  return second.status;
}

/** What a thief takes: the SQLite file (and its WAL), or a pg_dump of the database (over the connection without it). */
export async function stolenCopy(): Promise<Buffer> {
  if (!isPostgres()) {
    const file = storeUrl.url.slice('sqlite:'.length);
    return Buffer.concat([file, `${file}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)));
  }
  try {
    const r = await run('pg_dump', ['--data-only', storeUrl.url], { maxBuffer: 64 * 1024 * 1024, encoding: 'buffer' });
    return r.stdout as unknown as Buffer;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    const c = new pg.Client({ connectionString: storeUrl.url });
    await c.connect();
    try {
      const tables = await c.query<{ t: string }>(
        "select table_name as t from information_schema.tables where table_schema = 'public'",
      );
      const rows: string[] = [];
      for (const { t } of tables.rows) {
        const r = await c.query<{ row: string }>(`select x::text as row from "${t}" x`);
        rows.push(...r.rows.map((x) => x.row));
      }
      return Buffer.from(rows.join('\n'));
    } finally {
      await c.end();
    }
  }
}

/** The known secrets found in the clear in `bytes` (names only). */
export function inTheClear(bytes: Buffer): string[] {
  const found: string[] = [];
  const probes: [string, string][] = [
    ['webhook secret', known.webhookSecret],
    ['TOTP secret', known.totpSecret],
    ['view key', known.viewKey],
    ['view key (upper case)', known.viewKey.toUpperCase()],
  ];
  for (const [name, value] of probes) if (bytes.includes(Buffer.from(value))) found.push(name);
  return found;
}

/** Each stored secret as the store holds it, read past the service: all sealed, under which key ids. */
export async function storedKeyIds(): Promise<string[]> {
  const store = openStore(storeUrl.url, { poolSize: 1 });
  try {
    const all = await listStoredSecrets(store.db);
    expect(all.length).toBeGreaterThanOrEqual(4);
    expect(all.filter((s) => !/^enc1:[0-9a-f]{8}:/.test(s.stored))).toEqual([]);
    return [...new Set(all.map((s) => s.stored.split(':')[1] ?? ''))];
  } finally {
    await store.close();
  }
}

/** Bundles the service and the CLI, makes the store, the receiver and the first key before the file's tests; cleans up after. */
export function setUpSecretsAtRest(): void {
  beforeAll(async () => {
    [main, cli] = await Promise.all([bundleService(), bundleService('server/admin-cli.ts')]);
    storeUrl = await freshStoreUrl();
    rcv = await startReceiver('x');
    writeFileSync(key1, `${newKeyText()}\n`, { mode: 0o600 });
  }, 60_000);
  afterAll(async () => {
    await stop();
    await rcv?.close();
    main?.dispose();
    cli?.dispose();
    await storeUrl?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });
}
