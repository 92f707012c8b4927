import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchant } from '../core/merchants/merchants.js';
import { decodeQrDataUrl } from '../core/qr/testing/decode.js';
import { startTestService, type TestService } from '../server/testing/harness.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ env: { PUBLIC_URL: 'https://pay.example.com' } });
});
afterAll(async () => {
  await t?.close();
});

const order = {
  amount: 100,
  currency: 'btc',
  email: 'ann@example.com',
  name: 'Ann',
  order_id: 'A-1',
  order_description: 'Two mugs',
  success_url: 'https://shop.example.com/ok',
  cancel_url: 'https://shop.example.com/cancel',
};

async function paymentCount(): Promise<number> {
  const r = await t.api('/api/v1/payments?limit=500');
  return r.json.data.payments.length;
}

describe('POST /payments: happy path', () => {
  it('creates a direct payment with every group of API §2.3 and exact amounts', async () => {
    const r = await t.api('/api/v1/payments', { body: order });
    expect(r.status).toBe(201);
    expect(r.json.success).toBe(true);
    expect(r.json.message).toMatch(/created/i);
    const d = r.json.data;
    expect(Object.keys(d).sort()).toEqual([
      'blockchain',
      'customer',
      'integration_recommendations',
      'merchant_reference',
      'payment',
      'pricing',
      'qr',
    ]);
    expect(d.payment).toMatchObject({
      payment_status: 'waiting',
      success_url: order.success_url,
      cancel_url: order.cancel_url,
      confirmed_at: null,
    });
    for (const k of ['payment_id', 'invoice_id', 'purchase_id', 'created_at', 'expires_at', 'valid_until'])
      expect(typeof d.payment[k]).toBe('string');
    expect(d.payment.hosted_payment_url).toMatch(
      new RegExp(`^https://pay\\.example\\.com/pay/${d.payment.payment_id}\\?t=[A-Za-z0-9_-]{32}$`),
    );
    expect(d.payment.status_url).toBe(`https://pay.example.com/api/v1/payments/${d.payment.payment_id}`);
    expect(Date.parse(d.payment.expires_at) - Date.parse(d.payment.created_at)).toBe(1200 * 1000);
    expect(Date.parse(d.payment.valid_until) - Date.parse(d.payment.expires_at)).toBe(900 * 1000);
    expect(d.customer).toEqual({ name: 'Ann', email: 'ann@example.com' });
    // 100 USD at the shipped test rate of 65000 USD/BTC, rounded UP to 8 decimals: 0.00153846153... -> 0.00153847.
    expect(d.pricing).toEqual({
      price_amount: 100,
      price_currency: 'USD',
      pay_amount: 0.00153847,
      pay_currency: 'BTC',
      actually_paid: null,
      is_fixed_rate: false,
      is_fee_paid_by_user: false,
    });
    expect(r.text).toContain('"pay_amount":0.00153847');
    expect(d.blockchain).toMatchObject({
      pay_amount: 0.00153847,
      pay_currency: 'BTC',
      network: 'btc',
      extra_id: null,
      smart_contract: null,
      network_precision: 8,
    });
    expect(d.merchant_reference).toEqual({ order_id: 'A-1', order_description: 'Two mugs' });
    expect(d.integration_recommendations.length).toBeGreaterThanOrEqual(5);
  });

  it('gives each payment its own real-looking address that matches the currency wallet_regex', async () => {
    const currencies = (await t.api('/api/v1/currencies')).json.data as { code: string; wallet_regex: string }[];
    const seen = new Set<string>();
    for (const code of ['BTC', 'LTC', 'DOGE', 'ETH', 'USDTERC20', 'USDTTRC20', 'SOL', 'XRP', 'POL', 'BNBBSC']) {
      const c = currencies.find((x) => x.code === code);
      expect(c, code).toBeDefined();
      for (let i = 0; i < 2; i++) {
        const r = await t.api('/api/v1/payments', { body: { ...order, currency: code.toLowerCase() } });
        expect(r.status, `${code}: ${r.text}`).toBe(201);
        const b = r.json.data.blockchain;
        expect(new RegExp(c?.wallet_regex ?? '$^').test(b.pay_address), `${code} ${b.pay_address}`).toBe(true);
        const target = `${b.pay_address}|${b.extra_id ?? ''}`;
        expect(seen.has(target)).toBe(false);
        seen.add(target);
      }
    }
  });

  it('puts the same digits in the API, the URI and both QR codes (decoded)', async () => {
    for (const currency of ['btc', 'eth', 'usdterc20', 'xrp', 'sol']) {
      const r = await t.api('/api/v1/payments', { body: { ...order, amount: 12.34, currency } });
      expect(r.status).toBe(201);
      const { qr, pricing, blockchain } = r.json.data;
      expect(decodeQrDataUrl(qr.code_url)).toBe(qr.payload);
      expect(decodeQrDataUrl(qr.amount_code_url)).toBe(qr.amount_payload);
      expect(qr.payment_uri).toBe(qr.amount_payload);
      expect(qr.payload).toContain(blockchain.pay_address);
      const amountText = /"pay_amount":([0-9.]+)/.exec(r.text)?.[1];
      if (currency === 'eth' || currency === 'usdterc20') {
        // EIP-681 carries integer base units: they must be exactly pay_amount scaled by network_precision.
        const units = /(?:value|uint256)=(\d+)/.exec(qr.amount_payload)?.[1];
        const [ip, fp = ''] = (amountText ?? '').split('.');
        expect(BigInt(units ?? '-1')).toBe(BigInt(ip + fp.padEnd(blockchain.network_precision, '0')));
      } else {
        expect(qr.amount_payload).toContain(`amount=${amountText}`);
      }
      expect(String(pricing.pay_amount)).toBe(amountText);
    }
  });

  it('rounds up to at most 15 significant digits on 18-decimal assets', async () => {
    const r = await t.api('/api/v1/payments', { body: { ...order, currency: 'ETH' } });
    // 100 / 3000 = 0.0333...; 15 significant digits, rounded up.
    expect(r.text).toContain('"pay_amount":0.0333333333333334');
  });

  it('creates a payment link with every payment-link group', async () => {
    const r = await t.api('/api/v1/payment-links', { body: { ...order, is_fixed_rate: true } });
    expect(r.status).toBe(201);
    const d = r.json.data;
    expect(Object.keys(d).sort()).toEqual([
      'additional_info',
      'blockchain',
      'customer',
      'payment',
      'pricing',
      'timing',
    ]);
    expect(d.payment).toMatchObject({
      payment_status: 'waiting',
      payer_name: 'Ann',
      payer_email: 'ann@example.com',
      type: 'payment_link',
    });
    expect(d.payment.hosted_payment_url).toMatch(
      new RegExp(`^https://pay\\.example\\.com/pay/${d.payment.payment_id}\\?t=[A-Za-z0-9_-]{32}$`),
    );
    expect(d.pricing).toMatchObject({
      price_amount: 100,
      pay_amount: 0.00153847,
      amount_received: 0,
      is_fixed_rate: true,
    });
    expect(d.blockchain).toMatchObject({ network: 'btc', burning_percent: null, network_precision: 8 });
    expect(d.timing.time_limit).toBe(1200);
    expect(d.additional_info).toMatchObject({
      order_id: 'A-1',
      customer_email: 'ann@example.com',
      success_url: order.success_url,
    });
    const status = await t.api(`/api/v1/payments/${d.payment.payment_id}`);
    expect(status.json.data.payment_status).toBe('waiting');
  });
});

describe('POST /payments under concurrency', () => {
  it('stores every one of 60 concurrent payments, each with its own id and address', async () => {
    const before = await paymentCount();
    const rs = await Promise.all(
      Array.from({ length: 60 }, (_, i) => t.api('/api/v1/payments', { body: { ...order, order_id: `c-${i}` } })),
    );
    expect(rs.every((r) => r.status === 201)).toBe(true);
    const ids = new Set(rs.map((r) => r.json.data.payment.payment_id));
    const addresses = new Set(rs.map((r) => r.json.data.blockchain.pay_address));
    expect(ids.size).toBe(60);
    expect(addresses.size).toBe(60);
    expect(await paymentCount()).toBe(before + 60);
    for (const id of [...ids].slice(0, 5)) expect((await t.api(`/api/v1/payments/${id}`)).status).toBe(200);
  });
});

describe('POST /payments: validation writes nothing', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['amount below the minimum', { ...order, amount: 0.05 }, 'amount'],
    ['negative amount', { ...order, amount: -5 }, 'amount'],
    ['amount as a string', { ...order, amount: '100' }, 'amount'],
    ['unknown currency', { ...order, currency: 'NOPE' }, 'currency'],
    ['currency of wrong type', { ...order, currency: 7 }, 'currency'],
    ['bad e-mail', { ...order, email: 'not-an-email' }, 'email'],
    ['missing e-mail', { amount: 100, currency: 'btc' }, 'email'],
    ['http success_url', { ...order, success_url: 'http://shop.example.com/ok' }, 'success_url'],
    ['javascript cancel_url', { ...order, cancel_url: 'javascript:alert(1)' }, 'cancel_url'],
    ['unknown field', { ...order, colour: 'red' }, 'colour'],
    ['name too long', { ...order, name: 'x'.repeat(201) }, 'name'],
  ];
  for (const [what, body, field] of cases) {
    it(`422 on ${what}`, async () => {
      const before = await paymentCount();
      const r = await t.api('/api/v1/payments', { body });
      expect(r.status).toBe(422);
      expect(r.json.success).toBe(false);
      expect(typeof r.json.message).toBe('string');
      expect(Array.isArray(r.json.errors[field]), JSON.stringify(r.json)).toBe(true);
      expect(await paymentCount()).toBe(before);
    });
  }

  it('names the minimum in the message', async () => {
    const r = await t.api('/api/v1/payments', { body: { ...order, amount: 0.05 } });
    expect(r.json.errors.amount[0]).toMatch(/minimum of \d+(\.\d+)? USD/);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first response for the same key and body', async () => {
    const headers = { 'idempotency-key': 'order-42' };
    const a = await t.api('/api/v1/payments', { body: order, headers });
    const b = await t.api('/api/v1/payments', { body: order, headers });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.json.data.payment.payment_id).toBe(a.json.data.payment.payment_id);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
  });

  it('refuses the same key with another body (422) and keys are per merchant', async () => {
    const headers = { 'idempotency-key': 'order-43' };
    const a = await t.api('/api/v1/payments', { body: order, headers });
    const b = await t.api('/api/v1/payments', { body: { ...order, amount: 101 }, headers });
    expect(a.status).toBe(201);
    expect(b.status).toBe(422);
    expect(b.json.errors['Idempotency-Key']).toBeDefined();
    const other = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Other', mode: 'test' });
    const c = await t.api('/api/v1/payments', { body: { ...order, amount: 101 }, headers, key: other.secret_key });
    expect(c.status).toBe(201);
    expect(c.json.data.payment.payment_id).not.toBe(a.json.data.payment.payment_id);
  });

  it('forgets a key after 24 hours', async () => {
    const headers = { 'idempotency-key': 'order-44' };
    const a = await t.api('/api/v1/payments', { body: order, headers });
    await t.service.deps.db
      .updateTable('idempotency_keys')
      .set({ created_at: Date.now() - 24 * 3600 * 1000 - 1 })
      .where('key', '=', 'order-44')
      .execute();
    const b = await t.api('/api/v1/payments', { body: order, headers });
    expect(b.status).toBe(201);
    expect(b.json.data.payment.payment_id).not.toBe(a.json.data.payment.payment_id);
  });

  // A process killed mid-request leaves its claim "in progress" with the payment id it was creating. The state is
  // made by a real keyed request, then set back to what a kill before the answer was stored leaves behind.
  async function abandonedClaim(key: string, ageMs: number, paymentId?: string) {
    const first = await t.api('/api/v1/payments', { body: order, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(201);
    const claimed = first.json.data.payment.payment_id as string;
    await t.service.deps.db
      .updateTable('idempotency_keys')
      .set({
        status_code: 0,
        response_body: '',
        created_at: t.service.deps.clock.now() - ageMs,
        payment_id: paymentId ?? claimed,
      })
      .where('key', '=', key)
      .execute();
    return claimed;
  }
  const countPayments = async () =>
    Number(
      (
        await t.service.deps.db
          .selectFrom('payments')
          .select((e) => e.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('answers for a payment whose request died after creating it, without a second payment', async () => {
    const claimed = await abandonedClaim('order-46', 61_000);
    const before = await countPayments();
    const retry = await t.api('/api/v1/payments', { body: order, headers: { 'idempotency-key': 'order-46' } });
    expect(retry.status, retry.text).toBe(201);
    expect(retry.json.data.payment.payment_id).toBe(claimed);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.json.data.qr.amount_payload).toBeDefined();
    expect(await countPayments()).toBe(before);
    // Resolved for good: the next retry is a plain replay.
    expect((await t.api('/api/v1/payments', { body: order, headers: { 'idempotency-key': 'order-46' } })).text).toBe(
      retry.text,
    );
  });

  it('creates the payment a dead request never created, under the id it had claimed', async () => {
    await abandonedClaim('order-47', 61_000, 'pay_claimedbutnevermade');
    const retry = await t.api('/api/v1/payments', { body: order, headers: { 'idempotency-key': 'order-47' } });
    expect(retry.status, retry.text).toBe(201);
    expect(retry.json.data.payment.payment_id).toBe('pay_claimedbutnevermade');
    expect((await t.api('/api/v1/payments/pay_claimedbutnevermade')).json.data.payment_status).toBe('waiting');
    const again = await t.api('/api/v1/payments', { body: order, headers: { 'idempotency-key': 'order-47' } });
    expect(again.json.data.payment.payment_id).toBe('pay_claimedbutnevermade');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('still answers 409 while a claim is young enough to be a request in flight', async () => {
    await abandonedClaim('order-48', 5_000, 'pay_stillinflight');
    const retry = await t.api('/api/v1/payments', { body: order, headers: { 'idempotency-key': 'order-48' } });
    expect(retry.status).toBe(409);
    expect(retry.json.message).toMatch(/in progress/);
  });

  it('does not remember failed attempts', async () => {
    const headers = { 'idempotency-key': 'order-45' };
    const bad = await t.api('/api/v1/payments', { body: { ...order, email: 'x' }, headers });
    expect(bad.status).toBe(422);
    const good = await t.api('/api/v1/payments', { body: { ...order, email: 'x@example.com' }, headers });
    expect(good.status).toBe(201);
  });
});

describe('reading payments', () => {
  it('GET /payments/{id}: the status representation; another merchant gets 404 like a missing id', async () => {
    const created = (await t.api('/api/v1/payments', { body: order })).json.data;
    const id = created.payment.payment_id;
    const r = await t.api(`/api/v1/payments/${id}`);
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({
      payment_id: id,
      invoice_id: created.payment.invoice_id,
      payment_status: 'waiting',
      price_amount: 100,
      price_currency: 'USD',
      pay_amount: 0.00153847,
      pay_currency: 'BTC',
      actually_paid: 0,
      confirmed_at: null,
    });
    const other = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Other', mode: 'test' });
    const foreign = await t.api(`/api/v1/payments/${id}`, { key: other.secret_key });
    const missing = await t.api('/api/v1/payments/pay_doesnotexist', { key: other.secret_key });
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(foreign.json.message).toBe(missing.json.message);
  });

  it('GET /payments pages with a cursor and filters by status and time', async () => {
    const m = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Pager', mode: 'test' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await t.api('/api/v1/payments', { body: order, key: m.secret_key })).json.data.payment.payment_id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r: Awaited<ReturnType<TestService['api']>> = await t.api(
        `/api/v1/payments?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        { key: m.secret_key },
      );
      expect(r.status).toBe(200);
      seen.push(...r.json.data.payments.map((p: { payment_id: string }) => p.payment_id));
      cursor = r.json.data.next_cursor;
    } while (cursor);
    expect(seen.sort()).toEqual([...ids].sort());
    const none = await t.api('/api/v1/payments?status=finished', { key: m.secret_key });
    expect(none.json.data.payments).toEqual([]);
    const future = await t.api(
      `/api/v1/payments?created_from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
      { key: m.secret_key },
    );
    expect(future.json.data.payments).toEqual([]);
    const bad = await t.api('/api/v1/payments?status=paid', { key: m.secret_key });
    expect(bad.status).toBe(422);
    expect(bad.json.errors.status).toBeDefined();
  });
});
