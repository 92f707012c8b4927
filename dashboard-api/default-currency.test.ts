import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { type DashClient, userOf } from './testing/client.js';

/*
 * The merchant's default price currency (issue 31, item 3), set by an owner in the dashboard's settings: requests
 * that name no currency price in it at once, and the balances page shows the merchant's currency beside USD.
 */

let t: TestService;
let owner: DashClient;
let viewer: DashClient;
let base: string;

beforeAll(async () => {
  t = await startTestService({});
  owner = await userOf(t, t.merchant.merchant_id, 'owner@shop.example');
  viewer = await userOf(t, t.merchant.merchant_id, 'viewer@shop.example', 'viewer');
  base = `/merchants/${t.merchant.merchant_id}`;
});
afterAll(async () => {
  await t.close();
});

const order = { amount: 52, currency: 'btc', email: 'b@buyer.example' };

describe('default price currency', () => {
  it('is USD until an owner sets it; then API payments, estimates and drop-in sessions price in it', async () => {
    const settings = await owner.call(`${base}/settings`);
    expect(settings.json.data.default_currency).toBe('USD');
    expect(settings.json.data.price_currencies).toContain('JPY');
    expect((await t.api('/api/v1/payments', { body: order })).json.data.pricing.price_currency).toBe('USD');

    const saved = await owner.call(`${base}/settings`, { method: 'PATCH', body: { default_currency: 'gbp' } });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json.data.default_currency).toBe('GBP');
    expect((await owner.call(`${base}/settings`)).json.data.default_currency).toBe('GBP');

    // At once (the key cache is emptied): 52 GBP at 52000 GBP/BTC is exactly 0.001 BTC.
    const r = await t.api('/api/v1/payments', { body: order });
    expect(r.json.data.pricing).toMatchObject({ price_amount: 52, price_currency: 'GBP', pay_amount: 0.001 });
    const est = await t.api('/api/v1/estimate?amount=52&currency=btc');
    expect(est.json.data).toMatchObject({ currency_from: 'gbp', estimated_amount: 0.001 });
    const session = await t.api('/api/dropin/v1/sessions', {
      key: null,
      body: {
        public_key: t.merchant.public_key,
        amount: 52,
        crypto_currency: 'btc',
        customer: { email: 'c@buyer.example' },
      },
    });
    expect(session.status, session.text).toBe(201);
    expect(session.json.data.session).toMatchObject({ amount: '52', currency: 'GBP' });
    expect(session.json.data.payment).toMatchObject({ price_currency: 'GBP', pay_amount: '0.001' });
  });

  it('shows balances in USD and in the merchant’s currency', async () => {
    const p = (await t.api('/api/v1/payments', { body: { ...order, price_currency: 'USD', amount: 65 } })).json.data;
    await t.api('/api/v1/sandbox/transfers', {
      body: { currency: 'btc', address: p.blockchain.pay_address, amount: String(p.blockchain.pay_amount) },
    });
    await t.api('/api/v1/sandbox/blocks', { body: { count: 2, network: 'btc' } });
    const b = (await owner.call(`${base}/balances`)).json.data.find((x: { currency: string }) => x.currency === 'BTC');
    // 0.001 BTC: 65 USD, 52 GBP at the test rates.
    expect(b).toMatchObject({ amount: '0.001', usd_amount: '65', fiat: { currency: 'GBP', amount: '52' } });
    // The merchant API keeps the API's shape.
    const api = (await t.api('/api/v1/balances')).json.data.balances.find(
      (x: { currency: string }) => x.currency === 'BTC',
    );
    expect(api).not.toHaveProperty('fiat');
  });

  it('refuses an unlisted currency naming the field, and a viewer altogether', async () => {
    const bad = await owner.call(`${base}/settings`, { method: 'PATCH', body: { default_currency: 'XXX' } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json.errors)).toEqual(['default_currency']);
    const denied = await viewer.call(`${base}/settings`, { method: 'PATCH', body: { default_currency: 'EUR' } });
    expect(denied.status).toBe(403);
    expect((await owner.call(`${base}/settings`)).json.data.default_currency).toBe('GBP');
  });
});
