import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Secret, TOTP } from 'otpauth';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashFetch } from '../../dashboard-api/testing/client.js';
import { bundleService, type ServiceProcess, spawnService } from '../../server/testing/service-process.js';
import { freshStoreUrl } from '../../server/testing/store.js';
import { randomWalletKeys } from '../chains/monero/testing/wallet-keys.js';
import { systemClock } from '../clock.js';
import { createMerchant, getMerchant } from '../merchants/merchants.js';
import { migrate, openStore } from '../store/db.js';
import { startReceiver, type TestReceiver } from '../webhooks/testing/receiver.js';
import { newKeyText } from './keyring.js';
import { listStoredSecrets } from './stored-secrets.js';
import { unlockStore } from './unlock.js';

/*
 * Secrets at rest (issue 27, item 4), proven on the service as deployed: the bundled server and admin CLI in their
 * own processes on a real store (a SQLite file, or PostgreSQL with TEST_DATABASE_URL). A stolen copy of the store
 * (the file, a backup, a dump) is searched byte for byte for the secrets the test knows; the key is rotated, and
 * the webhook signatures (checked by a real receiver) and TOTP codes still work under the new key only.
 */

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'cps-secrets-'));
const key1 = join(dir, 'key-1');
const key2 = join(dir, 'key-2');
let storeUrl: Awaited<ReturnType<typeof freshStoreUrl>>;
let main: { path: string; dispose(): void };
let cli: { path: string; dispose(): void };
let rcv: TestReceiver;
let svc: ServiceProcess | undefined;
const known = { webhookSecret: '', secretKey: '', totpSecret: '', viewKey: '', xmrAddress: '', xmrMerchant: '' };
let demoPassword = '';
let firstSubaddress = '';

const isPostgres = () => !storeUrl.url.startsWith('sqlite:');

/** The admin CLI as the image runs it, on the test's store with `env` (the secrets key) on top. */
async function admin(args: string[], env: Record<string, string>) {
  const base = { ...process.env, DATABASE_URL: storeUrl.url, SECRETS_KEY: '', SECRETS_KEY_FILE: '' };
  try {
    const r = await run(process.execPath, [cli.path, ...args], { env: { ...base, ...env } });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

async function start(env: Record<string, string>): Promise<ServiceProcess> {
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

async function stop(): Promise<void> {
  if (svc && svc.child.exitCode === null && svc.child.signalCode === null) svc.child.kill('SIGTERM');
  await svc?.exited;
  svc = undefined;
}

/** A start that must fail: its exit code and what it printed on standard error. */
async function refusedStart(env: Record<string, string>): Promise<{ code: number | string; lines: string[] }> {
  const s = await start(env);
  const code = await s.exited;
  svc = undefined;
  return { code, lines: s.stderr().trim().split('\n') };
}

const codeAt = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at });

/** Sends a test webhook event and waits for the receiver to get it; answers whether its signature checked. */
async function testEventVerified(s: ServiceProcess): Promise<boolean> {
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
async function signInWithCode(s: ServiceProcess): Promise<number> {
  const first = await dashFetch(s.url, '/session', { body: { email: 'demo@example.com', password: demoPassword } });
  expect(first.status).toBe(200);
  const pending: string = first.json.data.two_factor.pending_token;
  const code = codeAt(known.totpSecret, Date.now() + 30_000);
  const second = await dashFetch(s.url, '/session/two-factor', { body: { pending_token: pending, code } });
  return second.status;
}

/** What a thief takes: the SQLite file (and its WAL), or a pg_dump of the database (over the connection without it). */
async function stolenCopy(): Promise<Buffer> {
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
function inTheClear(bytes: Buffer): string[] {
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
async function storedKeyIds(): Promise<string[]> {
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

describe('secrets at rest', () => {
  it('a stolen copy of the store (file, backup or dump) holds no webhook secret, TOTP secret or view key', async () => {
    const s = await start({ SECRETS_KEY_FILE: key1 });
    await s.listening();
    demoPassword = /password (\S+) \(shown once\)/.exec(s.stdout())?.[1] ?? '';
    expect(demoPassword).not.toBe('');

    // A webhook secret, checked by a real receiver.
    const shop = await admin(
      ['merchant', 'create', '--name', 'Shop', '--mode', 'test', '--webhook-url', rcv.url, '--json'],
      {
        SECRETS_KEY_FILE: key1,
      },
    );
    expect(shop.code, shop.stderr).toBe(0);
    const created = JSON.parse(shop.stdout);
    known.webhookSecret = created.webhook_secret;
    known.secretKey = created.secret_key;
    rcv.secret = known.webhookSecret;
    expect(await testEventVerified(s)).toBe(true);

    // A Monero view key of a live merchant.
    const wallet = randomWalletKeys();
    known.viewKey = wallet.viewKey;
    known.xmrAddress = wallet.address;
    const live = JSON.parse(
      (await admin(['merchant', 'create', '--name', 'XMR', '--mode', 'live', '--json'], { SECRETS_KEY_FILE: key1 }))
        .stdout,
    );
    known.xmrMerchant = live.merchant_id;
    const set = await admin(
      ['viewkey', 'set', '--merchant', live.merchant_id, '--address', wallet.address, '--view-key', wallet.viewKey],
      { SECRETS_KEY_FILE: key1 },
    );
    expect(set.code, set.stderr).toBe(0);
    const shown = await admin(['viewkey', 'show', '--merchant', live.merchant_id, '--json'], {
      SECRETS_KEY_FILE: key1,
    });
    firstSubaddress = JSON.parse(shown.stdout).first_subaddress;
    expect(firstSubaddress).toMatch(/^8/);

    // A TOTP secret: the demo owner turns two-factor on in the dashboard.
    const signedIn = await dashFetch(s.url, '/session', {
      body: { email: 'demo@example.com', password: demoPassword },
    });
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const headers = { cookie, 'x-csrf-token': signedIn.json.data.csrf_token };
    const setup = await dashFetch(s.url, '/account/two-factor/setup', { method: 'POST', headers });
    known.totpSecret = setup.json.data.secret;
    expect(known.totpSecret).toMatch(/^[A-Z2-7]{32}$/);
    const on = await dashFetch(s.url, '/account/two-factor', {
      body: { code: codeAt(known.totpSecret, Date.now()) },
      headers,
    });
    expect(on.status).toBe(201);

    await stop();
    const copy = await stolenCopy();
    // The copy is the real thing: the public parts of those very rows are there in the clear.
    expect(copy.includes(Buffer.from(known.xmrAddress))).toBe(true);
    expect(copy.includes(Buffer.from('demo@example.com'))).toBe(true);
    expect(inTheClear(copy)).toEqual([]);
    expect(await storedKeyIds()).toHaveLength(1);

    if (!isPostgres()) {
      const backup = join(dir, 'backup.sqlite');
      const b = await admin(['backup', '--to', backup], { SECRETS_KEY_FILE: key1 });
      expect(b.code, b.stderr).toBe(0);
      const bytes = readFileSync(backup);
      expect(bytes.includes(Buffer.from(known.xmrAddress))).toBe(true);
      expect(inTheClear(bytes)).toEqual([]);
    }
  }, 120_000);

  it('refuses to start with one line naming the variable when the key is wrong or missing', async () => {
    const wrong = await refusedStart({ SECRETS_KEY: newKeyText() });
    expect(wrong.code).toBe(1);
    expect(wrong.lines).toEqual([expect.stringMatching(/^Cannot start: SECRETS_KEY: not the key the store's secrets/)]);

    const garbage = await refusedStart({ SECRETS_KEY: 'hunter2' });
    expect(garbage.code).toBe(1);
    expect(garbage.lines).toEqual([expect.stringMatching(/^Cannot start: SECRETS_KEY: must be a 32-byte key/)]);

    const absent = await refusedStart({ SECRETS_KEY_FILE: join(dir, 'no-such-file') });
    expect(absent.code).toBe(1);
    expect(absent.lines).toEqual([expect.stringMatching(/^Cannot start: SECRETS_KEY_FILE: cannot read .*ENOENT/)]);

    // No key configured at all: on SQLite the default key file beside the store does not exist, and is not made up.
    if (!isPostgres()) {
      const none = await refusedStart({});
      expect(none.code).toBe(1);
      expect(none.lines).toEqual([
        expect.stringMatching(/^Cannot start: SECRETS_KEY_FILE \(or SECRETS_KEY\) is not set/),
      ]);
      expect(existsSync(`${storeUrl.url.slice('sqlite:'.length)}.key`)).toBe(false);
    }
  }, 120_000);

  it('rotate-key re-encrypts every secret under the new key in one go: signatures and TOTP codes still check', async () => {
    const before = await storedKeyIds();
    const r = await admin(['secrets', 'rotate-key', '--new-key-file', key2], { SECRETS_KEY_FILE: key1 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Re-encrypted \d+ secrets under key [0-9a-f]{8} \(was [0-9a-f]{8}\)/);
    expect(statSync(key2).mode & 0o777).toBe(0o600);
    const after = await storedKeyIds();
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before[0]);

    // The old key opens nothing any more.
    const old = await refusedStart({ SECRETS_KEY_FILE: key1 });
    expect(old.lines).toEqual([expect.stringMatching(/^Cannot start: SECRETS_KEY_FILE: not the key/)]);

    // Given as the variable itself this time (the file's text).
    const s = await start({ SECRETS_KEY: readFileSync(key2, 'utf8').trim() });
    await s.listening();
    expect(await testEventVerified(s)).toBe(true);
    expect(await signInWithCode(s)).toBe(200);
    await stop();
    const shown = await admin(['viewkey', 'show', '--merchant', known.xmrMerchant, '--json'], {
      SECRETS_KEY_FILE: key2,
    });
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout).first_subaddress).toBe(firstSubaddress);
    expect(inTheClear(await stolenCopy())).toEqual([]);
  }, 120_000);
});

describe('with no key configured', () => {
  it('uses a 0600 key file beside the SQLite store, which rotate-key replaces', async (ctx) => {
    // The PostgreSQL default (data/secrets.key under the working directory) is shared by every test store there.
    if (isPostgres()) ctx.skip();
    const own = await freshStoreUrl();
    const file = `${own.url.slice('sqlite:'.length)}.key`;
    const cliOn = (args: string[]) =>
      run(process.execPath, [cli.path, ...args], {
        env: { ...process.env, DATABASE_URL: own.url, SECRETS_KEY: '', SECRETS_KEY_FILE: '' },
      });
    try {
      const created = await cliOn(['merchant', 'create', '--name', 'Plain', '--mode', 'test', '--json']);
      expect(created.stderr).toContain(`Created the secrets key file ${file} (mode 0600)`);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const m = JSON.parse(created.stdout);
      const first = readFileSync(file, 'utf8');

      const rotated = await cliOn(['secrets', 'rotate-key']);
      expect(rotated.stdout).toContain(`${file} now holds the new key`);
      expect(readFileSync(file, 'utf8')).not.toBe(first);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(existsSync(`${file}.next`)).toBe(false);

      const store = openStore(own.url, { poolSize: 1 });
      try {
        const u = await unlockStore(store, {}, own.url);
        expect(u.createdKeyFile).toBeNull();
        expect((await getMerchant(store.db, m.merchant_id))?.webhook_secret).toBe(m.webhook_secret);
      } finally {
        await store.close();
      }
    } finally {
      await own.dispose();
    }
  }, 60_000);
});

describe('a store from before encryption at rest', () => {
  it('has its secrets in the clear sealed at the first start with a key, and they keep working', async () => {
    const legacy = await freshStoreUrl();
    const receiver = await startReceiver('x');
    try {
      // Written as the code before this change wrote it: the same schema, the secret column in the clear.
      const store = openStore(legacy.url, { poolSize: 1 });
      const secret = 'whsec_legacy_0123456789abcdefghijklmnopqrstuv';
      let sk = '';
      try {
        await migrate(store);
        const raw = store.db.withoutPlugins();
        const m = await createMerchant(raw, systemClock, { name: 'Old', mode: 'test', webhookUrl: receiver.url });
        await raw.updateTable('merchants').set({ webhook_secret: secret }).where('id', '=', m.merchant_id).execute();
        sk = m.secret_key;
      } finally {
        await store.close();
      }
      receiver.secret = secret;
      const file = legacy.url.startsWith('sqlite:') ? legacy.url.slice('sqlite:'.length) : null;
      const fileBytes = () =>
        Buffer.concat([`${file}`, `${file}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)));
      // The set-up is what it claims: the secret lies in the file in the clear.
      if (file) expect(fileBytes().includes(Buffer.from(secret))).toBe(true);

      const s = await spawnService(main.path, {
        DATABASE_URL: legacy.url,
        SECRETS_KEY_FILE: key1,
        SECRETS_KEY: '',
        PUBLIC_URL: 'https://pay.example.com',
      });
      try {
        await s.listening();
        expect(s.stdout()).toMatch(/Encrypted [1-9]\d* secrets the store held in the clear/);
        const r = await fetch(`${s.url}/api/v1/webhook-deliveries/test`, {
          method: 'POST',
          headers: { 'x-api-key': sk },
        });
        expect(r.status).toBe(202);
        const got = await receiver.waitFor((all) => all.length > 0);
        expect(got[0]?.verified).toBe(true);
      } finally {
        s.child.kill('SIGTERM');
        await s.exited;
      }
      const check = openStore(legacy.url, { poolSize: 1 });
      try {
        const stored = await listStoredSecrets(check.db);
        expect(stored.filter((x) => !x.stored.startsWith('enc1:'))).toEqual([]);
      } finally {
        await check.close();
      }
      if (file) {
        // Not even in freed pages or the WAL: both are scrubbed when secrets are sealed.
        expect(fileBytes().includes(Buffer.from(secret))).toBe(false);
      }
    } finally {
      await receiver.close();
      await legacy.dispose();
    }
  }, 120_000);
});
