import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A fresh, real store per test file: a SQLite file in a temp directory, or, when TEST_DATABASE_URL names a
 * PostgreSQL server, a new database on it (dropped afterwards). The same suites run on both.
 */
export async function freshStoreUrl(): Promise<{ url: string; dispose: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (base?.startsWith('postgres')) {
    const name = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(base);
    u.pathname = `/${name}`;
    return {
      url: u.toString(),
      dispose: async () => {
        const c = new pg.Client({ connectionString: base });
        await c.connect();
        // pg's pool.end() resolves while its sockets are still saying goodbye; dropping WITH (FORCE) at that moment
        // kills them and the client emits an unhandled 57P01. Give them up to 5 s to go by themselves first.
        for (let i = 0; i < 50; i++) {
          const r = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [
            name,
          ]);
          if ((r.rows[0]?.n ?? 0) === 0) break;
          await new Promise((res) => setTimeout(res, 100));
        }
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }
  const file = join(tmpdir(), `cps-${randomBytes(6).toString('hex')}.sqlite`);
  return {
    url: `sqlite:${file}`,
    dispose: async () => {
      // The store's default secrets key file (core/secrets/key-source.ts) lies beside it.
      for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}.key`]) rmSync(f, { force: true });
    },
  };
}
