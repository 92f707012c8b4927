import { describe, expect, it } from 'vitest';
import { createMerchant } from '../core/merchants/merchants.js';
import { fromUnits, toUnits } from '../core/money/decimal.js';
import { decodeQrDataUrl } from '../core/qr/testing/decode.js';
import { userOf } from './testing/client.js';
import { base, create, owner, setUpDailyTool, t, viewer } from './testing/daily-tool.js';

/*
 * Issue 23, the dashboard as a daily tool (set-up in testing/daily-tool.ts): the overview's figures, payment links
 * made from the dashboard, and the payments list sorted and exported.
 */

setUpDailyTool();

describe('overview (what to build 2)', () => {
  it("sums the store's figures: received per asset, sold in USD, payments by status, daily volume", async () => {
    const own = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Figures', mode: 'test' });
    const figuresOwner = await userOf(t, own.merchant_id, 'figures@daily.example');
    const fb = `/merchants/${own.merchant_id}`;
    const empty = (await figuresOwner.call(`${fb}/overview`)).json.data;
    expect(empty.periods.map((p: { sold_usd: string }) => p.sold_usd)).toEqual(['0.00', '0.00', '0.00']);
    expect(empty.daily).toHaveLength(30);

    const payIn = async (orderId: string, share: 'full' | 'part' | 'none') => {
      const p = await create(orderId, 'f@buyer.example', own.secret_key);
      const due = String(p.blockchain.pay_amount);
      if (share !== 'none') {
        await t.api('/api/v1/sandbox/transfers', {
          key: own.secret_key,
          body: { currency: 'BTC', address: p.blockchain.pay_address, amount: share === 'full' ? due : '0.00001' },
        });
      }
      return { id: p.payment.payment_id, due };
    };
    const a = await payIn('fig-a', 'full');
    const b = await payIn('fig-b', 'full');
    await payIn('fig-c', 'part');
    await payIn('fig-d', 'none');
    await t.api('/api/v1/sandbox/blocks', { key: own.secret_key, body: { count: 2, network: 'btc' } });
    // A finished ETH payment of more wei than 64 bits hold, written straight to the store: the sum stays exact.
    const big = await t.api('/api/v1/payments', {
      key: own.secret_key,
      body: { amount: 12.34, currency: 'eth', email: 'big@buyer.example', order_id: 'fig-big' },
    });
    await t.service.deps.db
      .updateTable('payments')
      .set({ status: 'finished', actually_paid_units: '123456789012345678901234' })
      .where('id', '=', big.json.data.payment.payment_id)
      .execute();

    const viewerOf = await userOf(t, own.merchant_id, 'figures-viewer@daily.example', 'viewer');
    const r = await viewerOf.call(`${fb}/overview`);
    expect(r.status).toBe(200);
    const [today, week, month] = r.json.data.periods;
    expect(today.period).toBe('today');
    // Two full payments and the partial one's 0.00001, in exact base units.
    const btcText = fromUnits((toUnits(a.due, 8) ?? 0n) + (toUnits(b.due, 8) ?? 0n) + (toUnits('0.00001', 8) ?? 0n), 8);
    expect(today.received).toEqual([
      { asset: 'BTC', amount: btcText },
      { asset: 'ETH', amount: '123456.789012345678901234' },
    ]);
    // 20 + 20 + 12.34: finished payments' USD prices; the partial one counts in BTC only.
    expect(today.sold_usd).toBe('52.34');
    expect(today.payments).toBe(5);
    expect(today.by_status).toMatchObject({ finished: 3, partially_paid: 1, waiting: 1 });
    expect(week).toEqual({ ...today, period: '7d', from: week.from });
    expect(month.sold_usd).toBe('52.34');
    const last = r.json.data.daily.at(-1);
    expect(last).toEqual({
      day: new Date().toISOString().slice(0, 10),
      sold_usd: '52.34',
      received_payments: 4,
      payments: 5,
    });
  });

  it('refuses parameters with 422, is 404 for a merchant one does not belong to', async () => {
    const r = await owner.call(`${base}/overview?days=7`);
    expect(r.status).toBe(422);
    expect(Object.keys(r.json.errors)).toEqual(['days']);
    const other = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Not mine', mode: 'test' });
    expect((await owner.call(`/merchants/${other.merchant_id}/overview`)).status).toBe(404);
  });
});

describe('payment links from the dashboard (what to build 3)', () => {
  const count = async () =>
    Number(
      (
        await t.service.deps.db
          .selectFrom('payments')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('creates a link through core payment creation: hosted URL that opens, its QR, shown on the payment', async () => {
    const r = await owner.call(`${base}/payment-links`, {
      body: {
        amount: 42.5,
        currency: 'ltc',
        email: 'link@buyer.example',
        order_id: 'link-1',
        order_description: 'Two mugs',
      },
    });
    expect(r.status).toBe(201);
    const d = r.json.data;
    expect(d.payment).toMatchObject({
      kind: 'link',
      price_amount: '42.5',
      price_currency: 'USD',
      pay_currency: 'LTC',
      order_id: 'link-1',
      customer_email: 'link@buyer.example',
      payment_status: 'waiting',
    });
    expect(d.hosted_payment_url).toMatch(new RegExp(`^${t.url}/pay/${d.payment.payment_id}\\?t=`));
    expect(decodeQrDataUrl(d.qr_code_url)).toBe(d.hosted_payment_url);
    const page = await fetch(d.hosted_payment_url);
    expect(page.status).toBe(200);
    // The merchant API sees the same payment, as a link.
    const api = await t.api(`/api/v1/payments/${d.payment.payment_id}`);
    expect(api.status).toBe(200);
    const detail = (await viewer.call(`${base}/payments/${d.payment.payment_id}`)).json.data;
    expect(detail.hosted_payment_url).toBe(d.hosted_payment_url);
    expect(detail.payment.order_description).toBe('Two mugs');
    // Without a currency, it starts in an asset the merchant takes.
    const any = await owner.call(`${base}/payment-links`, { body: { amount: 10, email: 'any@buyer.example' } });
    expect(any.status).toBe(201);
    expect(any.json.data.payment.pay_currency).toMatch(/^[A-Z0-9]+$/);
  });

  it('bad input: 422 per field and nothing written; malformed 400; viewer 403; no CSRF 403; other merchant 404', async () => {
    const before = await count();
    const bad = await owner.call(`${base}/payment-links`, {
      body: { amount: -1, currency: 'nope!', email: 'not-an-email', order_id: 'x'.repeat(201), extra: 1 },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.success).toBe(false);
    expect(Object.keys(bad.json.errors).sort()).toEqual(['amount', 'currency', 'email', 'extra', 'order_id']);
    const unknown = await owner.call(`${base}/payment-links`, {
      body: { amount: 10, currency: 'qqq', email: 'a@b.example' },
    });
    expect(unknown.status).toBe(422);
    expect(Object.keys(unknown.json.errors)).toEqual(['currency']);
    const malformed = await owner.call(`${base}/payment-links`, { body: '{"amount": 1,' });
    expect(malformed.status).toBe(400);
    const asViewer = await viewer.call(`${base}/payment-links`, { body: { amount: 10, email: 'a@b.example' } });
    expect(asViewer.status).toBe(403);
    const noCsrf = await owner.call(`${base}/payment-links`, {
      body: { amount: 10, email: 'a@b.example' },
      csrf: null,
    });
    expect(noCsrf.status).toBe(403);
    const other = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Links', mode: 'test' });
    const theirs = await owner.call(`/merchants/${other.merchant_id}/payment-links`, {
      body: { amount: 10, email: 'a@b.example' },
    });
    expect(theirs.status).toBe(404);
    expect(await count()).toBe(before);
  });
});

describe('payments list: sort and export of the filtered list (what to build 4)', () => {
  it('sorts by price either way and by creation, in keyset pages; exports exactly the filtered list as CSV', async () => {
    const shop = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Sorted', mode: 'test' });
    const so = await userOf(t, shop.merchant_id, 'sorted@daily.example');
    const sb = `/merchants/${shop.merchant_id}`;
    for (const [amount, order] of [
      [5, 'p-5'],
      [100, 'p-100'],
      [20.5, '=1+1'],
      [20.05, 'p-20.05'],
    ] as const) {
      const r = await t.api('/api/v1/payments', {
        key: shop.secret_key,
        body: { amount, currency: 'btc', email: 'Sort@Buyer.example', order_id: order },
      });
      expect(r.status).toBe(201);
    }
    const pages = async (query: string) => {
      const out: string[] = [];
      let cursor = '';
      do {
        const r = await so.call(`${sb}/payments?limit=2&${query}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(r.status).toBe(200);
        out.push(...r.json.data.payments.map((p: { price_amount: string }) => p.price_amount));
        cursor = r.json.data.next_cursor ?? '';
      } while (cursor);
      return out;
    };
    expect(await pages('sort=amount_desc')).toEqual(['100', '20.5', '20.05', '5']);
    expect(await pages('sort=amount_asc')).toEqual(['5', '20.05', '20.5', '100']);
    expect(await pages('sort=oldest')).toEqual(['5', '100', '20.5', '20.05']);
    expect(await pages('')).toEqual(['20.05', '20.5', '100', '5']);
    expect(await pages('sort=amount_desc&q=sort%40buyer.example')).toEqual(['100', '20.5', '20.05', '5']);

    const csv = await so.call(`${sb}/exports/payments.csv?q=%3D1%2B1`);
    expect(csv.status).toBe(200);
    const lines = csv.text.trim().split('\r\n');
    expect(lines).toHaveLength(2);
    // The customer's order id would run as a formula: the existing export escapes it.
    expect(lines[1]).toContain(`"'=1+1"`);
    const sorted = await so.call(`${sb}/exports/payments.csv?sort=amount_asc&status=waiting`);
    const prices = sorted.text
      .trim()
      .split('\r\n')
      .slice(1)
      .map((l) => l.split(',')[4]);
    // USD prices with their two decimals, as money is written.
    expect(prices).toEqual(['"5.00"', '"20.05"', '"20.50"', '"100.00"']);
    expect((await so.call(`${sb}/exports/payments.csv?status=finished`)).text.trim().split('\r\n')).toHaveLength(1);
    const bad = await so.call(`${sb}/payments?sort=price`);
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json.errors)).toEqual(['sort']);
    expect((await so.call(`${sb}/exports/payments.csv?sort=price&limit=3`)).status).toBe(422);
    expect((await owner.call(`${sb}/exports/payments.csv`)).status).toBe(404);
  });
});
