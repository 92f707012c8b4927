import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMails } from '../core/mail/mail-log.js';
import { createMerchant } from '../core/merchants/merchants.js';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { until } from '../server/testing/until.js';
import { type DashClient, userOf } from './testing/client.js';

let t: TestService;
let owner: DashClient;
let cashier: DashClient;
let viewer: DashClient;
let base: string;
beforeAll(async () => {
  t = await startTestService();
  base = `/merchants/${t.merchant.merchant_id}`;
  owner = await userOf(t, t.merchant.merchant_id, 'owner@shop.example', 'owner');
  cashier = await userOf(t, t.merchant.merchant_id, 'till@shop.example', 'cashier');
  viewer = await userOf(t, t.merchant.merchant_id, 'look@shop.example', 'viewer');
});
afterAll(async () => {
  await t?.close();
});

const startOfDay = () => new Date(Date.now() - 3_600_000).toISOString();

describe('the point of sale', () => {
  it("takes a payment of amount + tip, QR with the exact amount, listed in today's sales with its cashier", async () => {
    const r = await cashier.call(`${base}/pos/payments`, { body: { amount: 12.5, tip: 1.25, currency: 'ltc' } });
    expect(r.status).toBe(201);
    const p = r.json.data.payment;
    expect(p).toMatchObject({
      price_amount: '13.75',
      price_currency: 'USD',
      pay_currency: 'LTC',
      payment_status: 'waiting',
    });
    expect(p.customer_email).toBe('till@shop.example');
    expect(r.json.data.payment_uri).toContain(`amount=${p.pay_amount}`);
    expect(r.json.data.qr_code_url).toMatch(/^data:image\/svg\+xml/);

    const one = await cashier.call(`${base}/pos/payments/${p.payment_id}`);
    expect(one.json.data.payment.payment_id).toBe(p.payment_id);
    const sales = await cashier.call(`${base}/pos/sales?from=${encodeURIComponent(startOfDay())}`);
    expect(sales.status).toBe(200);
    expect(sales.json.data.sales[0]).toMatchObject({
      payment_id: p.payment_id,
      tip_amount: '1.25',
      cashier: 'till@shop.example',
    });
    expect(sales.json.data).toMatchObject({ paid_count: 0, paid_amount: '0' });
  });

  it("streams a cashier the point of sale's payments only: never the web shop's customers or deliveries", async () => {
    const read = async (who: DashClient, act: () => Promise<string[]>) => {
      const ctrl = new AbortController();
      const res = await fetch(`${t.url}/dashboard/api${base}/events`, {
        headers: { cookie: who.cookie },
        signal: ctrl.signal,
      });
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      let text = '';
      const next = async (pred: () => boolean) => {
        while (!pred()) text += new TextDecoder().decode((await reader.read()).value);
      };
      await next(() => text.includes(': connected'));
      const [sale, web] = await act();
      // The sale's event comes after the web payment's (both from this merchant's one change bus, in order).
      await next(() => text.includes(sale as string));
      ctrl.abort();
      return { text, web: web as string };
    };
    const act = async () => {
      const web = await t.api('/api/v1/payments', {
        body: { amount: 30, currency: 'ltc', email: 'web-customer@buyer.example', order_id: 'WEB-1' },
      });
      const sale = await cashier.call(`${base}/pos/payments`, { body: { amount: 4, currency: 'ltc' } });
      return [sale.json.data.payment.payment_id as string, web.json.data.payment.payment_id as string];
    };
    const asCashier = await read(cashier, act);
    expect(asCashier.text).toContain('event: payment');
    expect(asCashier.text).not.toContain(asCashier.web);
    expect(asCashier.text).not.toContain('web-customer@buyer.example');
    const asOwner = await read(owner, act);
    expect(asOwner.text).toContain(asOwner.web);
  });

  it('refuses bad input with the envelope and writes nothing', async () => {
    const before = (await owner.call(`${base}/pos/sales?from=${encodeURIComponent(startOfDay())}`)).json.data.sales
      .length;
    for (const body of [
      { amount: 0, currency: 'ltc' },
      { amount: 5, tip: -1, currency: 'ltc' },
      { amount: 5, currency: 'nope' },
    ]) {
      const r = await cashier.call(`${base}/pos/payments`, { body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.json.success).toBe(false);
    }
    const after = (await owner.call(`${base}/pos/sales?from=${encodeURIComponent(startOfDay())}`)).json.data.sales
      .length;
    expect(after).toBe(before);
    const old = new Date(Date.now() - 3 * 86_400_000).toISOString();
    expect((await cashier.call(`${base}/pos/sales?from=${encodeURIComponent(old)}`)).status).toBe(422);
  });
});

describe("a point of sale payment's customer mail", () => {
  /** A counter sale paid in full on the sandbox chain, waited on until finished (when its receipt is written). */
  async function paidSale(body: Record<string, unknown>) {
    const r = await cashier.call(`${base}/pos/payments`, { body: { amount: 4, currency: 'ltc', ...body } });
    expect(r.status, r.text).toBe(201);
    const p = r.json.data.payment;
    const tr = await t.api('/api/v1/sandbox/transfers', {
      body: { currency: 'ltc', address: p.pay_address, amount: p.pay_amount },
    });
    expect(tr.status, tr.text).toBeLessThan(300);
    await t.api('/api/v1/sandbox/blocks', { body: { count: 12, network: 'ltc' } });
    await until(
      async () => (await cashier.call(`${base}/pos/payments/${p.payment_id}`)).json.data.payment.payment_status,
      (s) => s === 'finished',
    );
    return p as { payment_id: string; customer_email: string };
  }
  const mails = async () =>
    (await listMails(t.service.deps.db, t.merchant.merchant_id, { limit: 100 })).mails.filter(
      (m) => m.kind === 'receipt' || m.kind === 'underpaid',
    );

  it('sends no receipt for a sale without a customer address, and never to the cashier', async () => {
    const p = await paidSale({});
    expect(p.customer_email).toBe('till@shop.example');
    const written = await mails();
    expect(written.filter((m) => m.text_body.includes(p.payment_id))).toEqual([]);
    expect(written.filter((m) => m.to_address === 'till@shop.example')).toEqual([]);
  });

  it("sends the receipt to the customer's address when they give one at the counter", async () => {
    const p = await paidSale({ customer_email: 'Ann@Customer.example' });
    expect(p.customer_email).toBe('Ann@Customer.example');
    const receipt = (await mails()).filter((m) => m.text_body.includes(p.payment_id));
    expect(receipt.map((m) => [m.kind, m.to_address])).toEqual([['receipt', 'ann@customer.example']]);
  });

  it('refuses a customer address that is not one (422 naming the field), writing nothing', async () => {
    const r = await cashier.call(`${base}/pos/payments`, {
      body: { amount: 4, currency: 'ltc', customer_email: 'not an address' },
    });
    expect(r.status).toBe(422);
    expect(Object.keys(r.json.errors)).toEqual(['customer_email']);
  });
});

describe('the cashier role', () => {
  it('is refused (403) on refunds, exports, keys, settings, users and links, whatever the method', async () => {
    const sale = (await cashier.call(`${base}/pos/payments`, { body: { amount: 5, currency: 'ltc' } })).json.data
      .payment;
    const refused: [string, string, unknown?][] = [
      ['POST', `${base}/payments/${sale.payment_id}/refund`, {}],
      ['GET', `${base}/exports/payments.csv`],
      ['GET', `${base}/exports/audit.csv`],
      ['GET', `${base}/keys`],
      ['POST', `${base}/keys`, {}],
      ['GET', `${base}/settings`],
      ['PATCH', `${base}/settings`, { underpaid_tolerance_percent: 1 }],
      ['GET', `${base}/users`],
      ['GET', `${base}/payments`],
      ['GET', `${base}/payments/${sale.payment_id}`],
      ['GET', `${base}/links`],
      ['POST', `${base}/links`, { name: 'X', amount: 5 }],
    ];
    for (const [method, path, body] of refused) {
      const r = await cashier.call(path, { method, ...(body === undefined ? {} : { body }) });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.json.message).toContain('Cashiers');
    }
    // The same refund is an owner's to make: the route exists and works for them (the 403 is the role's).
    expect((await owner.call(`${base}/keys`)).status).toBe(200);
  });

  it('is a role viewers do not have: a viewer cannot sell', async () => {
    const r = await viewer.call(`${base}/pos/payments`, { body: { amount: 5, currency: 'ltc' } });
    expect(r.status).toBe(403);
  });

  it("sells in the merchant's own currency and its minor units: a JPY till charges whole yen", async () => {
    const shop = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Tokyo cafe', mode: 'test' });
    const yen = await userOf(t, shop.merchant_id, 'tokyo@shop.example', 'owner');
    const mb = `/merchants/${shop.merchant_id}`;
    const set = await yen.call(`${mb}/settings`, { method: 'PATCH', body: { default_currency: 'JPY' } });
    expect(set.status, set.text).toBe(200);
    const r = await yen.call(`${mb}/pos/payments`, { body: { amount: 1250, tip: 125.4, currency: 'ltc' } });
    expect(r.status, r.text).toBe(201);
    const p = r.json.data.payment;
    expect(p).toMatchObject({ price_amount: '1375', price_currency: 'JPY', pay_currency: 'LTC' });
    const read = (await t.api(`/api/v1/payments/${p.payment_id}`, { key: shop.secret_key })).json.data;
    expect(read).toMatchObject({ price_amount: 1375, price_currency: 'JPY' });
    await t.api('/api/v1/sandbox/transfers', {
      key: shop.secret_key,
      body: { currency: 'ltc', address: p.pay_address, amount: p.pay_amount },
    });
    await t.api('/api/v1/sandbox/blocks', { key: shop.secret_key, body: { count: 2, network: 'ltc' } });
    await until(
      async () => (await yen.call(`${mb}/pos/payments/${p.payment_id}`)).json.data.payment.payment_status,
      (s) => s === 'finished',
    );
    const sales = await yen.call(`${mb}/pos/sales?from=${encodeURIComponent(startOfDay())}`);
    expect(sales.json.data).toMatchObject({ paid_count: 1, paid_amount: '1375', price_currency: 'JPY' });
  });
});
