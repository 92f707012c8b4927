import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ANVIL_CHAIN_ID, type Anvil, startAnvil } from '../core/chains/evm/testing/anvil.js';
import { startTestService, type TestService } from './testing/harness.js';
import { until } from './testing/until.js';

const readyz = async (t: TestService) => {
  const r = await fetch(`${t.url}/readyz`);
  return { status: r.status, body: await r.json(), cache: r.headers.get('cache-control') };
};

describe('/healthz and /readyz on a store of its own', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
  });
  afterAll(async () => {
    await t.close();
  });

  it('/healthz says the process is alive without asking anything else', async () => {
    const r = await fetch(`${t.url}/healthz`);
    expect(r.status).toBe(200);
    expect((await r.json()).data).toEqual({ status: 'alive' });
  });

  it('/readyz is 200 with the store answering, every migration applied and no chains configured', async () => {
    const r = await readyz(t);
    expect(r.status).toBe(200);
    expect(r.cache).toBe('no-store');
    expect(r.body.data).toEqual({ ready: true, store: 'ok', migrations: { pending: [] }, chains: [] });
  });

  it('/readyz is 503 naming the migration a store lacks, and 200 again once it is applied', async () => {
    const db = t.service.deps.db;
    const last = await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration
      order by name desc limit 1`.execute(db);
    const row = last.rows[0];
    if (!row) throw new Error('no migrations recorded');
    await sql`delete from kysely_migration where name = ${row.name}`.execute(db);
    const r = await readyz(t);
    expect(r.status).toBe(503);
    expect(r.body.data.ready).toBe(false);
    expect(r.body.data.migrations.pending).toEqual([row.name]);
    await sql`insert into kysely_migration (name, timestamp) values (${row.name}, ${row.timestamp})`.execute(db);
    expect((await readyz(t)).status).toBe(200);
  });
});

describe('/readyz with a live chain configured (a real anvil node)', () => {
  let anvil: Anvil;
  let t: TestService | undefined;
  const configFile = join(tmpdir(), `chains-${randomBytes(4).toString('hex')}.json`);
  beforeAll(async () => {
    anvil = await startAnvil();
    // A local chain id needs its own token contracts; nothing is paid here, so any addresses do.
    const tokens = {
      USDTERC20: '0x0000000000000000000000000000000000000001',
      USDCERC20: '0x0000000000000000000000000000000000000002',
    };
    const eth = {
      rpcUrl: anvil.url,
      chainId: ANVIL_CHAIN_ID,
      confirmations: 1,
      pollIntervalMs: 100,
      timeoutMs: 500,
      tokens,
    };
    writeFileSync(configFile, JSON.stringify({ networks: { eth } }));
  }, 60_000);
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  afterAll(async () => {
    await anvil.stop();
    rmSync(configFile, { force: true });
  });

  it('is 503 before the watcher first polled, 200 while it follows, 503 naming the chain once its node is gone', async () => {
    t = await startTestService({ env: { CHAINS_CONFIG: configFile } });
    const before = await readyz(t);
    expect(before.status).toBe(503);
    expect(before.body.data.chains).toMatchObject([{ chain: 'live:eth', state: 'starting' }]);

    t.service.start();
    const following = await until(
      () => readyz(t as TestService),
      (r) => r.status === 200,
    );
    expect(following.body.data.chains).toMatchObject([{ chain: 'live:eth', state: 'following', errors: 0 }]);
    expect(following.body.data.chains[0].node_head).toBeGreaterThanOrEqual(0);

    await anvil.stop();
    const gone = await until(
      () => readyz(t as TestService),
      (r) => r.status === 503,
    );
    expect(gone.body.data.store).toBe('ok');
    expect(gone.body.data.chains).toMatchObject([{ chain: 'live:eth', state: 'unreachable' }]);
    expect(gone.body.data.chains[0].last_error).toBeTruthy();
  });
});
