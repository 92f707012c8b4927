import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './testing/harness.js';

const pgUrl = process.env.TEST_DATABASE_URL?.startsWith('postgres') ? process.env.TEST_DATABASE_URL : undefined;

// PostgreSQL only: SQLite has no server to lose.
describe.skipIf(!pgUrl)('PostgreSQL connection loss', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('survives the server cutting idle connections, and answers on fresh ones', async () => {
    expect((await t.api('/api/v1/payments?limit=1')).status).toBe(200);
    const dbName = new URL(t.service.config.DATABASE_URL).pathname.slice(1);
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    const killed = await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [dbName],
    );
    await admin.end();
    expect(killed.rowCount).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 200)); // let the pool see the terminations
    let status = 0;
    for (let i = 0; i < 5 && status !== 200; i++) status = (await t.api('/api/v1/payments?limit=1')).status;
    expect(status).toBe(200);
  });
});
