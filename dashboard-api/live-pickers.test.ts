import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createMerchant } from '../core/merchants/merchants.js';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { until } from '../server/testing/until.js';
import { userOf } from './testing/client.js';

/*
 * What a merchant's pickers (Payment links, Try, the payment filter) and overview offer must be payable in the
 * merchant's mode: a live merchant sees only the assets of configured networks, a test merchant sees which sandbox
 * assets can never go live, and stale live prices are said on the overview.
 */

const configFile = join(tmpdir(), `chains-${randomBytes(4).toString('hex')}.json`);
let t: TestService | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
afterAll(() => rmSync(configFile, { force: true }));

const codes = (rows: { code: string }[]) => rows.map((r) => r.code);

describe('the assets a merchant is offered', () => {
  it('a test merchant: every sandbox asset, TRX, USDTTRC20, SOL and XRP marked test only', async () => {
    t = await startTestService();
    const owner = await userOf(t, t.merchant.merchant_id, 'owner@shop.example');
    const r = await owner.call(`/merchants/${t.merchant.merchant_id}/assets`);
    expect(r.status).toBe(200);
    const testOnly = r.json.data.filter((a: { test_only: boolean }) => a.test_only);
    expect(codes(testOnly).sort()).toEqual(['SOL', 'TRX', 'USDTTRC20', 'XRP']);
    expect(codes(r.json.data)).toEqual(expect.arrayContaining(['BTC', 'ETH', 'XMR', 'LTC', 'DOGE']));
    expect(r.json.data.find((a: { code: string }) => a.code === 'BTC')).toEqual({
      code: 'BTC',
      name: 'Bitcoin',
      network: 'btc',
      test_only: false,
    });
  });

  it('a live merchant with no network configured: nothing (no picker lists assets that can only fail)', async () => {
    t = await startTestService({ mode: 'live' });
    const owner = await userOf(t, t.merchant.merchant_id, 'owner@shop.example');
    const r = await owner.call(`/merchants/${t.merchant.merchant_id}/assets`);
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual([]);
  });

  it('a live merchant: only the configured network, even while its node is down; a test merchant beside it: all', async () => {
    const eth = { rpcUrl: 'http://127.0.0.1:1', chainId: 1, confirmations: 12, pollIntervalMs: 200, timeoutMs: 500 };
    writeFileSync(configFile, JSON.stringify({ networks: { eth } }));
    t = await startTestService({ mode: 'live', env: { CHAINS_CONFIG: configFile } });
    const owner = await userOf(t, t.merchant.merchant_id, 'owner@shop.example');
    const live = await owner.call(`/merchants/${t.merchant.merchant_id}/assets`);
    expect(codes(live.json.data).sort()).toEqual(['ETH', 'USDCERC20', 'USDTERC20']);
    expect(live.json.data.every((a: { test_only: boolean }) => !a.test_only)).toBe(true);

    const sandbox = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Sandbox', mode: 'test' });
    const tester = await userOf(t, sandbox.merchant_id, 'tester@shop.example');
    const test = await tester.call(`/merchants/${sandbox.merchant_id}/assets`);
    expect(test.json.data.length).toBe(t.service.deps.catalog.list().length);
  });
});

describe('stale prices on the overview', () => {
  it("says since when a live merchant's prices are stale, for which assets, and the source's error", async () => {
    const eth = { rpcUrl: 'http://127.0.0.1:1', chainId: 1, confirmations: 12, pollIntervalMs: 200, timeoutMs: 500 };
    writeFileSync(configFile, JSON.stringify({ networks: { eth } }));
    // Nothing listens on port 1: every refresh fails.
    t = await startTestService({
      mode: 'live',
      start: true,
      env: { CHAINS_CONFIG: configFile, RATES_BASE_URL: 'http://127.0.0.1:1/api/v3' },
    });
    const owner = await userOf(t, t.merchant.merchant_id, 'owner@shop.example');
    const path = `/merchants/${t.merchant.merchant_id}/overview`;
    const r = await until(
      () => owner.call(path),
      (x) => x.json?.data?.prices?.state === 'stale',
    );
    expect(r.json.data.prices).toMatchObject({ updated_at: null, stale_assets: ['ETH', 'USDTERC20', 'USDCERC20'] });
    expect(r.json.data.prices.stale_since).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(r.json.data.prices.last_error).toMatch(/fetch failed|ECONNREFUSED/);

    // A test merchant's fixed prices never go stale.
    const sandbox = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Sandbox', mode: 'test' });
    const tester = await userOf(t, sandbox.merchant_id, 'tester@shop.example');
    const fresh = await tester.call(`/merchants/${sandbox.merchant_id}/overview`);
    expect(fresh.json.data.prices).toMatchObject({ state: 'fresh', stale_assets: [] });
  });
});
