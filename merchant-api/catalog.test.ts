import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../server/testing/harness.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

const required = [
  'BTC',
  'LTC',
  'DOGE',
  'ETH',
  'USDTERC20',
  'USDCERC20',
  'BNBBSC',
  'USDTBSC',
  'POL',
  'USDTMATIC',
  'TRX',
  'USDTTRC20',
  'SOL',
  'XRP',
];

describe('GET /currencies', () => {
  it('lists every required asset with every field of API §2.1', async () => {
    const r = await t.api('/api/v1/currencies');
    expect(r.status).toBe(200);
    const list = r.json.data as Record<string, unknown>[];
    const fields = [
      'code_id',
      'code',
      'name',
      'network',
      'icon_url',
      'logo_file',
      'wallet_regex',
      'priority',
      'extra_id_exists',
      'extra_id_regex',
      'track',
      'cg_id',
      'is_maxlimit',
      'smart_contract',
      'network_precision',
      'usd_rate',
      'enabled',
      'created_at',
      'updated_at',
    ];
    for (const code of required) {
      const c = list.find((x) => x.code === code);
      expect(c, code).toBeDefined();
      expect(Object.keys(c ?? {}).sort()).toEqual([...fields].sort());
      expect(typeof c?.usd_rate).toBe('number');
      expect(c?.enabled).toBe(true);
      expect(() => new RegExp(String(c?.wallet_regex))).not.toThrow();
    }
    const xrp = list.find((x) => x.code === 'XRP');
    expect(xrp).toMatchObject({ extra_id_exists: true });
    expect(new RegExp(String(xrp?.extra_id_regex)).test('123456')).toBe(true);
    expect(list.find((x) => x.code === 'USDTERC20')).toMatchObject({
      smart_contract: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
      network_precision: 6,
      network: 'eth',
    });
  });

  it('serves each icon at its icon_url', async () => {
    const list = (await t.api('/api/v1/currencies')).json.data as { icon_url: string }[];
    for (const c of list) {
      const res = await fetch(`${t.url}${c.icon_url}`);
      expect(res.status, c.icon_url).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/svg/);
      expect(await res.text()).toContain('<svg');
    }
  });
});

describe('GET /minimum-amount and GET /estimate', () => {
  it('answers every field of API §4.4, in any ticker case', async () => {
    const r = await t.api('/api/v1/minimum-amount?currency_from=BTC&currency_to=btc&is_fixed_rate=true');
    expect(r.status).toBe(200);
    // 5 USD minimum at 65000 USD/BTC, rounded up to 8 decimals.
    expect(r.json.data).toEqual({
      currency_from: 'btc',
      currency_to: 'btc',
      fiat_equivalent: 'usd',
      is_fixed_rate: true,
      is_fee_paid_by_user: false,
      min_amount: 0.00007693,
      fiat_equivalent_amount: 5,
      raw: { min_amount: 0.00007693, fiat_equivalent: 5.00045 },
    });
  });

  it('answers every field of API §4.5 with the same amount a payment would ask', async () => {
    const r = await t.api('/api/v1/estimate?amount=100&currency=ETH');
    expect(r.status).toBe(200);
    expect(r.text).toContain('"estimated_amount":0.0333333333333334');
    expect(r.json.data).toMatchObject({
      amount: 100,
      currency_from: 'usd',
      currency_to: 'eth',
      rate: 3000,
      fee: 0.0002,
    });
    expect(r.json.data.raw).toMatchObject({ currency_from: 'usd', amount_from: 100, currency_to: 'eth' });
    const p = await t.api('/api/v1/payments', { body: { amount: 100, currency: 'eth', email: 'a@example.com' } });
    expect(p.json.data.pricing.pay_amount).toBe(r.json.data.estimated_amount);
  });

  it('422 on unknown currencies and missing parameters', async () => {
    const a = await t.api('/api/v1/minimum-amount?currency_from=nope&currency_to=btc');
    expect(a.status).toBe(422);
    expect(a.json.errors.currency_from ?? a.json.errors.currency).toBeDefined();
    const b = await t.api('/api/v1/estimate?currency=btc');
    expect(b.status).toBe(422);
    expect(b.json.errors.amount).toBeDefined();
    const c = await t.api('/api/v1/estimate?amount=10&currency=btc&extra=1');
    expect(c.status).toBe(422);
    expect(c.json.errors.extra).toBeDefined();
  });
});

describe('configured minimums', () => {
  it('MIN_AMOUNTS_USD overrides the shipped minimum of an asset, in quotes and in payment creation', async () => {
    const s = await startTestService({ env: { MIN_AMOUNTS_USD: '{"btc":"50"}' } });
    try {
      const m = await s.api('/api/v1/minimum-amount?currency_from=btc&currency_to=btc');
      expect(m.json.data.fiat_equivalent_amount).toBe(50);
      const low = await s.api('/api/v1/payments', { body: { amount: 40, currency: 'btc', email: 'a@example.com' } });
      expect(low.status).toBe(422);
      expect(low.json.errors.amount[0]).toMatch(/minimum of 50(\.\d+)? USD/);
      const fine = await s.api('/api/v1/payments', { body: { amount: 40, currency: 'eth', email: 'a@example.com' } });
      expect(fine.status).toBe(201);
    } finally {
      await s.close();
    }
  });
});
