import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HDKey } from '@scure/bip32';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setXpub } from '../core/addresses/xpubs.js';
import { ANVIL_CHAIN_ID, type Anvil, startAnvil } from '../core/chains/evm/testing/anvil.js';
import { startRatesServer } from '../core/chains/evm/testing/rates-server.js';
import { ManualClock } from '../core/clock.js';
import { shippedTestRates } from '../core/pricing/fixed-rates.js';
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
    expect(r.body.data).toMatchObject({ ready: true, store: 'ok', migrations: { pending: [] }, chains: [] });
    // No live network: nothing refreshes live prices.
    expect(r.body.data.rates).toEqual({
      state: 'off',
      updated_at: null,
      stale_since: null,
      stale_ids: [],
      last_error: null,
      last_error_at: null,
    });
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

  it('/readyz is 503 once the store no longer answers, naming it', async () => {
    const own = await startTestService();
    await own.service.store.close();
    const r = await readyz(own);
    expect(r.status).toBe(503);
    expect(r.body.data).toMatchObject({ ready: false, store: 'unreachable' });
    expect(r.body.data.store_error).toBeTruthy();
    await new Promise<void>((resolve) => own.server.close(() => resolve()));
  });
});

describe('/readyz with live chains configured: one followed (a real anvil node), one whose node is down', () => {
  let anvil: Anvil;
  let rates: { url: string; close(): Promise<void> } | undefined;
  let t: TestService | undefined;
  const clock = new ManualClock(Date.now());
  const configFile = join(tmpdir(), `chains-${randomBytes(4).toString('hex')}.json`);
  const xpub = HDKey.fromMasterSeed(randomBytes(32)).derive("m/44'/60'/0'").publicExtendedKey;
  beforeAll(async () => {
    anvil = await startAnvil();
    rates = await startRatesServer(
      Object.fromEntries(Object.entries(shippedTestRates).map(([id, usd]) => [id, Number(usd)])),
    );
    // A local chain id needs its own token contracts; nothing is paid in tokens here, so any addresses do.
    const tokens = {
      USDTERC20: '0x0000000000000000000000000000000000000001',
      USDCERC20: '0x0000000000000000000000000000000000000002',
    };
    const eth = { rpcUrl: anvil.url, chainId: ANVIL_CHAIN_ID, confirmations: 1, pollIntervalMs: 100, timeoutMs: 500 };
    // Configured, but nothing listens there: a node that is down.
    const base = { rpcUrl: 'http://127.0.0.1:1', chainId: 8453, confirmations: 1, pollIntervalMs: 100, timeoutMs: 500 };
    writeFileSync(configFile, JSON.stringify({ networks: { eth: { ...eth, tokens }, base } }));
  }, 60_000);
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  afterAll(async () => {
    await anvil.stop();
    await rates?.close();
    rmSync(configFile, { force: true });
  });

  it('stays 200 while a node is down, naming the chain unreachable; its assets are unlisted and the others payable', async () => {
    t = await startTestService({
      mode: 'live',
      clock,
      env: { CHAINS_CONFIG: configFile, RATES_BASE_URL: (rates as { url: string }).url, RATES_STALE_SECONDS: '60' },
    });
    expect((await setXpub(t.service.deps.db, clock, t.merchant.merchant_id, 'evm', xpub)).ok).toBe(true);
    const before = await readyz(t);
    expect(before.status).toBe(200);
    expect(before.body.data.chains).toMatchObject([
      { chain: 'live:eth', state: 'starting' },
      { chain: 'live:base', state: 'starting' },
    ]);
    expect(before.body.data.rates.state).toBe('off');

    t.service.start();
    const settled = await until(
      () => readyz(t as TestService),
      (r) =>
        r.body.data.chains.map((c: { state: string }) => c.state).join() === 'following,unreachable' &&
        r.body.data.rates.state === 'fresh',
    );
    expect(settled.status).toBe(200);
    expect(settled.body.data.ready).toBe(true);
    expect(settled.body.data.chains[1].last_error).toBeTruthy();
    expect(settled.body.data.rates).toMatchObject({ stale_since: null, stale_ids: [], last_error: null });

    const listed = (await t.api('/api/v1/currencies')).json.data.map((c: { code: string }) => c.code);
    expect(listed).toContain('ETH');
    expect(listed).not.toContain('ETHBASE');
    expect(listed).not.toContain('USDCBASE');
    const paid = await t.api('/api/v1/payments', { body: { amount: 30, currency: 'ETH', email: 'a@example.com' } });
    expect(paid.status).toBe(201);
    const refused = await t.api('/api/v1/payments', {
      body: { amount: 30, currency: 'ETHBASE', email: 'a@example.com' },
    });
    expect(refused.status).toBe(422);

    // The old behaviour, for an operator who asks for it.
    const strict = await fetch(`${t.url}/readyz?strict=chains`);
    expect(strict.status).toBe(503);
    expect((await fetch(`${t.url}/readyz?strict=rates`)).status).toBe(200);
    expect((await fetch(`${t.url}/readyz?strict=everything`)).status).toBe(422);
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).toContain('chain_up{chain="live:eth"} 1');
    expect(metrics).toContain('chain_up{chain="live:base"} 0');
    expect(metrics).toMatch(/^rates_stale 0$/m);
  });

  it('stays 200 while prices go stale, saying since when and the last error; ?strict=rates is 503', async () => {
    t = await startTestService({
      mode: 'live',
      clock,
      env: {
        CHAINS_CONFIG: configFile,
        RATES_BASE_URL: (rates as { url: string }).url,
        RATES_STALE_SECONDS: '60',
        RATES_REFRESH_SECONDS: '1',
      },
    });
    t.service.start();
    const fresh = await until(
      () => readyz(t as TestService),
      (r) => r.body.data.rates.state === 'fresh',
    );
    const updatedAt = Date.parse(fresh.body.data.rates.updated_at);
    await rates?.close();
    rates = undefined;
    clock.advance(61_000);
    const stale = await until(
      () => readyz(t as TestService),
      (r) => r.body.data.rates.last_error !== null,
    );
    expect(stale.status).toBe(200);
    expect(stale.body.data.rates.state).toBe('stale');
    expect(stale.body.data.rates.stale_since).toBe(new Date(updatedAt + 60_001).toISOString());
    expect(stale.body.data.rates.stale_ids).toContain('ethereum');
    expect(stale.body.data.rates.last_error).toMatch(/fetch failed|ECONNREFUSED/);
    expect((await fetch(`${t.url}/readyz?strict=rates`)).status).toBe(503);
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).not.toMatch(/^rates_stale 0$/m);
  });
});
