import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchant } from '../core/merchants/merchants.js';
import { decodeQrDataUrl } from '../core/qr/testing/decode.js';
import { startTestService, type TestService } from '../server/testing/harness.js';

let t: TestService;
let liveKey: string;
beforeAll(async () => {
  t = await startTestService();
  const live = await createMerchant(t.service.deps.db, t.service.deps.clock, {
    name: 'Live shop',
    mode: 'live',
    allowedOrigins: ['https://shop.example'],
  });
  liveKey = live.public_key;
});
afterAll(async () => {
  await t?.close();
});

const pk = () => t.merchant.public_key;
const order = { amount: 25, customer: { email: 'ann@example.com', name: 'Ann' }, reference: 'A-1' };

/** Calls the drop-in API as a browser would: Bearer key, optional Origin. */
async function dropin(
  path: string,
  init: { body?: unknown; key?: string | null; origin?: string; method?: string } = {},
) {
  const headers: Record<string, string> = { accept: 'application/json' };
  const key = init.key === undefined ? pk() : init.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (init.origin) headers.origin = init.origin;
  return t.api(`/api/dropin/v1${path}`, {
    key: null,
    headers,
    ...(init.body !== undefined ? { body: init.body } : {}),
    ...(init.method ? { method: init.method } : {}),
  });
}

async function countRows(table: 'dropin_sessions' | 'payments'): Promise<number> {
  const r = await t.service.deps.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

describe('sessions: happy path', () => {
  it('creates a session with the picker list, then the chosen asset creates an exact payment with its QR', async () => {
    const r = await dropin('/sessions', { body: order, origin: 'https://anywhere.example' });
    expect(r.status, r.text).toBe(201);
    expect(r.headers.get('access-control-allow-origin')).toBe('https://anywhere.example');
    const token: string = r.json.data.session_token;
    expect(token).toMatch(/^cs_[A-Za-z0-9_-]{22}$/);
    expect(r.json.data).not.toHaveProperty('payment');
    // What the popup's header shows, nothing else (the reference and the customer stay server-side).
    expect(r.json.data.session).toEqual({ amount: '25', currency: 'USD', test_mode: true, merchant_name: 'Test shop' });
    const btc = r.json.data.currencies.find((c: { code: string }) => c.code === 'BTC');
    // Only what the picker shows: the icon inline (decorative: no title); the minimum in USD only when not payable.
    expect(btc).toEqual({
      code: 'BTC',
      name: 'Bitcoin',
      network: 'btc',
      ticker: 'BTC',
      network_name: 'Bitcoin',
      icon: btc.icon,
      payable: true,
    });
    // A token by its ticker and network's name (core/catalog/asset-label.ts), what the popup prints.
    expect(r.json.data.currencies.find((c: { code: string }) => c.code === 'USDTTRC20')).toMatchObject({
      ticker: 'USDT',
      network_name: 'Tron',
    });
    expect(btc.icon).toMatch(
      /^data:image\/svg\+xml,<svg xmlns='http:\/\/www\.w3\.org\/2000\/svg' viewBox='0 0 64 64' /,
    );
    // Only what a data URL must escape is escaped.
    expect(btc.icon).toContain("fill='%23F7931A'");
    expect(btc.icon).not.toContain('title');

    const chosen = await dropin(`/sessions/${token}/payment`, { key: null, body: { currency: 'btc' } });
    expect(chosen.status, chosen.text).toBe(201);
    const p = chosen.json.data.payment;
    // 25 USD at the shipped test rate of 65000 USD/BTC, rounded up to 8 decimals.
    expect(p).toMatchObject({
      payment_status: 'waiting',
      pay_amount: '0.00038462',
      pay_currency: 'BTC',
      network: 'btc',
      price_amount: '25',
      remaining_amount: '0.00038462',
    });
    expect(p.confirmations).toEqual({ count: 0, required: 2 });
    expect(decodeQrDataUrl(p.qr.code_url)).toBe(p.qr.payment_uri);
    expect(p.qr.payment_uri).toBe(`bitcoin:${p.pay_address}?amount=0.00038462`);

    // The same payment is what the merchant API sees, created through the same core.
    const merchantView = await t.api(`/api/v1/payments/${p.payment_id}`);
    expect(merchantView.json.data).toMatchObject({
      pay_amount: 0.00038462,
      pay_address: p.pay_address,
      order_id: 'A-1',
    });

    // Choosing the same asset again while the quote holds creates nothing new.
    const again = await dropin(`/sessions/${token}/payment`, { key: null, body: { currency: 'BTC' } });
    expect(again.status).toBe(200);
    expect(again.json.data.payment.payment_id).toBe(p.payment_id);
  });

  it('creates the payment in the same call when crypto_currency is preset', async () => {
    const r = await dropin('/sessions', { body: { ...order, crypto_currency: 'usdterc20' } });
    expect(r.status, r.text).toBe(201);
    expect(r.json.data).not.toHaveProperty('currencies');
    expect(r.json.data.payment).toMatchObject({
      pay_currency: 'USDTERC20',
      network: 'eth',
      ticker: 'USDT',
      network_name: 'Ethereum',
      pay_amount: '25',
    });
    // Test mode pays on the sandbox chain, which no browser wallet knows: no wallet transaction is offered.
    expect(r.json.data.payment.wallet).toBeNull();
    const read = await dropin(`/sessions/${r.json.data.session_token}`, { key: null });
    expect(read.json.data.payment.payment_id).toBe(r.json.data.payment.payment_id);
  });

  it('simulate pays on the sandbox chain: confirming 1 of 2, then finished', async () => {
    const r = await dropin('/sessions', { body: { ...order, crypto_currency: 'ltc' } });
    const token = r.json.data.session_token;
    const s1 = await dropin(`/sessions/${token}/simulate`, { key: null, body: { blocks: 1 } });
    expect(s1.status, s1.text).toBe(200);
    expect(s1.json.data.payment).toMatchObject({
      payment_status: 'confirming',
      confirmations: { count: 1, required: 2 },
    });
    const s2 = await dropin(`/sessions/${token}/simulate`, { key: null, body: { pay: false, blocks: 1 } });
    expect(s2.json.data.payment).toMatchObject({ payment_status: 'finished', remaining_amount: '0' });
    const merchantView = await t.api(`/api/v1/payments/${s2.json.data.payment.payment_id}`);
    expect(merchantView.json.data.payment_status).toBe('finished');
    // Paid: the choice is final.
    const change = await dropin(`/sessions/${token}/payment`, { key: null, body: { currency: 'btc' } });
    expect(change.status).toBe(409);
  });

  it('streams status changes over Server-Sent Events', async () => {
    const r = await dropin('/sessions', { body: { ...order, crypto_currency: 'doge' } });
    const token = r.json.data.session_token;
    const ac = new AbortController();
    const res = await fetch(`${t.url}/api/dropin/v1/sessions/${token}/events`, { signal: ac.signal });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const dec = new TextDecoder();
    let buf = '';
    const statuses: string[] = [];
    const until = async (status: string) => {
      while (!statuses.includes(status)) {
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        buf += dec.decode(value, { stream: true });
        let i = buf.indexOf('\n\n');
        while (i >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (/^event: payment$/m.test(block) && data) statuses.push(JSON.parse(data).payment_status);
          i = buf.indexOf('\n\n');
        }
      }
    };
    await until('waiting');
    await dropin(`/sessions/${token}/simulate`, { key: null, body: { blocks: 2 } });
    await until('finished');
    ac.abort();
    expect(statuses[0]).toBe('waiting');
    expect(statuses.at(-1)).toBe('finished');
  });

  it('after expiry, choosing again is the retry: a new payment, the old one stays expired', async () => {
    const r = await dropin('/sessions', { body: { ...order, crypto_currency: 'btc' } });
    const token = r.json.data.session_token;
    const old = r.json.data.payment.payment_id;
    await t.service.deps.db
      .updateTable('payments')
      .set({ expires_at: 1, valid_until: 2 })
      .where('id', '=', old)
      .execute();
    const retry = await dropin(`/sessions/${token}/payment`, { key: null, body: { currency: 'btc' } });
    expect(retry.status).toBe(201);
    expect(retry.json.data.payment.payment_id).not.toBe(old);
    const read = await dropin(`/sessions/${token}`, { key: null });
    expect(read.json.data.payment.payment_id).toBe(retry.json.data.payment.payment_id);
  });
});

describe('sessions: errors', () => {
  it('validates with the API envelope and writes nothing', async () => {
    const before = [await countRows('dropin_sessions'), await countRows('payments')];
    const r = await dropin('/sessions', {
      body: { amount: -1, currency: 'XXX', crypto_currency: 'nope!', customer: { email: 'x' }, extra: 1 },
    });
    expect(r.status).toBe(422);
    expect(r.json.success).toBe(false);
    expect(Object.keys(r.json.errors).sort()).toEqual([
      'amount',
      'crypto_currency',
      'currency',
      'customer.email',
      'extra',
    ]);
    const below = await dropin('/sessions', { body: { ...order, amount: 0.5, crypto_currency: 'btc' } });
    expect(below.status).toBe(422);
    expect(below.json.errors.amount[0]).toMatch(/minimum/);
    const unknown = await dropin('/sessions', { body: { ...order, crypto_currency: 'zzz' } });
    expect(unknown.json.errors.currency).toBeDefined();
    expect([await countRows('dropin_sessions'), await countRows('payments')]).toEqual(before);
  });

  it('marks assets whose minimum the price misses as not payable', async () => {
    const r = await dropin('/sessions', { body: { ...order, amount: 1 } });
    const codes = r.json.data.currencies
      .filter((c: { payable: boolean }) => !c.payable)
      .map((c: { code: string }) => c.code);
    expect(codes).toContain('BTC');
    expect(r.json.data.currencies.find((c: { code: string }) => c.code === 'BTC').min_usd).toBe('5');
  });

  it('answers 400 for malformed JSON and 404 for unknown tokens and bare payment ids', async () => {
    const bad = await t.api('/api/dropin/v1/sessions', {
      key: null,
      headers: { authorization: `Bearer ${pk()}` },
      body: '{nope',
    });
    expect(bad.status).toBe(400);
    const created = await dropin('/sessions', { body: { ...order, crypto_currency: 'btc' } });
    const id = created.json.data.payment.payment_id;
    for (const token of ['cs_unknown', id, `pt_${id}.${'A'.repeat(32)}`]) {
      const r = await dropin(`/sessions/${token}`, { key: null });
      expect(r.status, token).toBe(404);
    }
  });

  it('refuses simulate for live merchants', async () => {
    const r = await dropin('/sessions', { key: liveKey, origin: 'https://shop.example', body: order });
    expect(r.status, r.text).toBe(201);
    const s = await dropin(`/sessions/${r.json.data.session_token}/simulate`, {
      key: null,
      origin: 'https://shop.example',
      body: {},
    });
    expect(s.status).toBe(400);
  });
});

describe('sessions: auth and origins', () => {
  it('refuses secret keys with a message that they must never reach a browser', async () => {
    const r = await dropin('/sessions', { key: t.merchant.secret_key, body: order });
    expect(r.status).toBe(401);
    expect(r.json.message).toMatch(/secret keys .*must never reach a browser/i);
  });

  it('refuses missing, unknown and malformed keys', async () => {
    for (const key of [null, 'dk_test_unknown', 'whatever']) {
      const r = await dropin('/sessions', { key, body: order });
      expect(r.status, String(key)).toBe(401);
    }
  });

  it("enforces a live merchant's allowed origins, CORS included", async () => {
    const pre = await fetch(`${t.url}/api/dropin/v1/sessions`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/authorization/);
    const evil = await dropin('/sessions', { key: liveKey, origin: 'https://evil.example', body: order });
    expect(evil.status).toBe(403);
    expect(evil.json.message).toMatch(/Origin https:\/\/evil\.example is not allowed/);
    const good = await dropin('/sessions', { key: liveKey, origin: 'https://shop.example', body: order });
    expect(good.status).toBe(201);
    // The token does not carry the session to another origin either.
    const read = await dropin(`/sessions/${good.json.data.session_token}`, {
      key: null,
      origin: 'https://evil.example',
    });
    expect(read.status).toBe(403);
  });
});

/**
 * POST /sessions as the popup sends it from a shop's page: the key in the JSON body, the body as text/plain, no
 * header of ours, so the browser sends it without a preflight.
 */
async function simpleSession(body: Record<string, unknown>, origin?: string) {
  const res = await fetch(`${t.url}/api/dropin/v1/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', ...(origin ? { origin } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, json: await res.json() };
}

describe('sessions: the key in a CORS-simple body', () => {
  it('creates the session and its payment from a text/plain body carrying public_key', async () => {
    const r = await simpleSession({ public_key: pk(), ...order, crypto_currency: 'BTC' }, 'https://anywhere.example');
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    expect(r.headers.get('access-control-allow-origin')).toBe('https://anywhere.example');
    expect(r.json.data.payment.pay_currency).toBe('BTC');
    expect(r.json.data.session.merchant_name).toBe('Test shop');
  });

  it('refuses an sk_ key, a missing key and an unknown key in the body with 401, writing nothing', async () => {
    const before = [await countRows('dropin_sessions'), await countRows('payments')];
    const secret = await simpleSession({ public_key: t.merchant.secret_key, ...order });
    expect(secret.status).toBe(401);
    expect(secret.json).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
    expect(secret.json.message).toMatch(/secret keys .*must never reach a browser/i);
    const missing = await simpleSession(order);
    expect(missing.status).toBe(401);
    expect(missing.json.message).toMatch(/Missing public key: send it as the body's public_key/);
    for (const key of ['dk_test_unknown', 'whatever', '']) {
      const r = await simpleSession({ public_key: key, ...order });
      expect(r.status, key).toBe(401);
    }
    expect([await countRows('dropin_sessions'), await countRows('payments')]).toEqual(before);
  });

  it("refuses an origin outside a live merchant's allowed origins with 403, readable by the page", async () => {
    const evil = await simpleSession({ public_key: liveKey, ...order }, 'https://evil.example');
    expect(evil.status).toBe(403);
    expect(evil.json.message).toMatch(/Origin https:\/\/evil\.example is not allowed/);
    expect(evil.headers.get('access-control-allow-origin')).toBe('https://evil.example');
    const good = await simpleSession({ public_key: liveKey, ...order }, 'https://shop.example');
    expect(good.status).toBe(201);
  });

  it('answers 422 per field, public_key included, and 400 for two different keys', async () => {
    const bad = await simpleSession({ public_key: pk(), amount: -1, customer: { email: 'x' } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json.errors).sort()).toEqual(['amount', 'customer.email']);
    const notText = await simpleSession({ public_key: 42, ...order });
    expect(notText.status).toBe(422);
    expect(Object.keys(notText.json.errors)).toEqual(['public_key']);
    const two = await t.api('/api/dropin/v1/sessions', {
      key: null,
      headers: { authorization: `Bearer ${liveKey}` },
      body: { public_key: pk(), ...order },
    });
    expect(two.status).toBe(400);
    expect(two.json.message).toMatch(/send the public key once/);
  });

  it('takes text/plain only on the drop-in: the merchant API still answers 415', async () => {
    const res = await fetch(`${t.url}/api/v1/payments`, {
      method: 'POST',
      headers: { 'x-api-key': t.merchant.secret_key, 'content-type': 'text/plain' },
      body: JSON.stringify({ price_amount: 10, price_currency: 'usd', pay_currency: 'btc' }),
    });
    expect(res.status).toBe(415);
  });
});

describe('hosted page', () => {
  it('serves /pay/{id} only with the signed token and reads the payment through it', async () => {
    const r = await t.api('/api/v1/payment-links', {
      body: { amount: 30, currency: 'btc', email: 'bo@example.com', success_url: 'https://shop.example/ok' },
    });
    const url = new URL(r.json.data.payment.hosted_payment_url);
    const page = await fetch(`${t.url}${url.pathname}${url.search}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/dropin/v1/page.js');
    expect((await fetch(`${t.url}${url.pathname}`)).status).toBe(404);
    expect((await fetch(`${t.url}${url.pathname}?t=${'x'.repeat(32)}`)).status).toBe(404);
    const token = `pt_${r.json.data.payment.payment_id}.${url.searchParams.get('t')}`;
    const read = await dropin(`/sessions/${token}`, { key: null });
    expect(read.status).toBe(200);
    expect(read.json.data.payment).toMatchObject({
      payment_id: r.json.data.payment.payment_id,
      success_url: 'https://shop.example/ok',
    });
  });
});
