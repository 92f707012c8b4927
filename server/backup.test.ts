import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleService, type ServiceProcess, spawnService } from './testing/service-process.js';

// Backups are of SQLite stores (PostgreSQL has pg_dump): this file always runs on a SQLite file of its own.
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'cps-backup-'));
const storeFile = join(dir, 'service.sqlite');
let main: { path: string; dispose(): void };
let cli: { path: string; dispose(): void };
let svc: ServiceProcess | undefined;
let secretKey = '';

/** The admin CLI as the image runs it: the plain-JavaScript bundle under Node, in its own process. */
async function admin(args: string[], databaseUrl = `sqlite:${storeFile}`) {
  try {
    const r = await run(process.execPath, [cli.path, ...args], { env: { ...process.env, DATABASE_URL: databaseUrl } });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

async function createPayment(n: number): Promise<void> {
  const r = await fetch(`${svc?.url}/api/v1/payments`, {
    method: 'POST',
    headers: { 'x-api-key': secretKey, 'content-type': 'application/json' },
    body: JSON.stringify({ amount: 10 + (n % 50), currency: 'ltc', email: 'backup@example.com', order_id: `o-${n}` }),
  });
  if (r.status !== 201) throw new Error(`payment ${n}: ${r.status} ${await r.text()}`);
}

/** Every row of every table, read through (a torn page makes SQLite fail or integrity_check complain). */
function readWhole(file: string): { integrity: unknown; rows: Map<string, number> } {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[];
    const rows = new Map<string, number>();
    for (const { name } of tables) rows.set(name, db.prepare(`select * from "${name}"`).all().length);
    return { integrity: db.pragma('integrity_check', { simple: true }), rows };
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  [main, cli] = await Promise.all([bundleService(), bundleService('server/admin-cli.ts')]);
  svc = await spawnService(main.path, { DATABASE_URL: `sqlite:${storeFile}` });
  await svc.listening();
  secretKey = /secret key\s+(sk_test_\S+)/.exec(svc.stdout())?.[1] ?? '';
}, 60_000);
afterAll(async () => {
  if (svc && svc.child.exitCode === null) svc.child.kill('SIGKILL');
  await svc?.exited;
  main.dispose();
  cli.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('admin backup', () => {
  it('copies the store while the service writes to it: each copy is whole and every row is readable', async () => {
    let n = 0;
    const writing = { on: true };
    const writer = (async () => {
      while (writing.on) await createPayment(n++);
    })();
    const copies: string[] = [];
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 300));
      const to = join(dir, `copy-${i}.sqlite`);
      const r = await admin(['backup', '--to', to]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^Backed up .* \(\d+ pages, integrity ok\)/);
      copies.push(to);
    }
    writing.on = false;
    await writer;
    let last = 0;
    for (const c of copies) {
      const { integrity, rows } = readWhole(c);
      expect(integrity).toBe('ok');
      const payments = rows.get('payments') ?? 0;
      expect(payments).toBeGreaterThanOrEqual(last);
      last = payments;
    }
    expect(last).toBeGreaterThan(0);
    expect(last).toBeLessThanOrEqual(n);
    // They hold webhook secrets, TOTP secrets and view keys: owner-only, whatever the umask (022 here: 0644 before).
    for (const c of copies) expect((statSync(c).mode & 0o777).toString(8), c).toBe('600');
  }, 60_000);

  it('never overwrites an existing file, and sends PostgreSQL stores to pg_dump', async () => {
    const to = join(dir, 'copy-0.sqlite');
    const again = await admin(['backup', '--to', to]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists/);
    const pg = await admin(['backup', '--to', join(dir, 'x.sqlite')], 'postgres://u@127.0.0.1:1/db');
    expect(pg.code).toBe(2);
    expect(pg.stderr).toMatch(/pg_dump/);
  });
});

describe('admin restore', () => {
  it('is refused while the service has the store open, and the store is left as it was', async () => {
    const before = readWhole(storeFile).rows.get('payments');
    const r = await admin(['restore', '--from', join(dir, 'copy-0.sqlite')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/is in use/);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(readWhole(storeFile).rows.get('payments')).toBe(before);
  });

  it('refuses a file that is not a store of this service', async () => {
    const other = join(dir, 'other.sqlite');
    new SQLite(other).exec('create table t (x)');
    const r = await admin(['restore', '--from', other]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not a store of this service/);
  });

  it('restores once the service is stopped: a restarted service serves the backup', async () => {
    svc?.child.kill('SIGTERM');
    expect(await svc?.exited).toBe(0);
    const backup = join(dir, 'copy-0.sqlite');
    const ids = (file: string) => {
      const db = new SQLite(file, { readonly: true });
      const rows = db.prepare('select id from payments').all() as { id: string }[];
      db.close();
      return new Set(rows.map((r) => r.id));
    };
    const inBackup = ids(backup);
    const later = [...ids(storeFile)].find((id) => !inBackup.has(id));
    expect(later, 'payments were made after the first backup').toBeDefined();
    const r = await admin(['restore', '--from', backup]);
    expect(r.code, r.stderr).toBe(0);
    expect(ids(storeFile)).toEqual(inBackup);

    svc = await spawnService(main.path, { DATABASE_URL: `sqlite:${storeFile}` });
    await svc.listening();
    const get = (id: string) => fetch(`${svc?.url}/api/v1/payments/${id}`, { headers: { 'x-api-key': secretKey } });
    expect((await get([...inBackup][0] as string)).status).toBe(200);
    expect((await get(later as string)).status).toBe(404);
  }, 60_000);
});
