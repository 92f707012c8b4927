import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userOf } from '../dashboard-api/testing/client.js';
import { startTestService, type TestService } from '../server/testing/harness.js';

/*
 * Issue 23 item 10: a checkout's abandoned choice (another asset in the same popup, or the same order opened again
 * after the popup was closed) expires the earlier payment at once instead of leaving it waiting beside the new one;
 * an expired payment still takes a deposit to its address (docs/architecture.md lifecycle), so nothing paid is ever lost.
 */

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

const customer = { email: 'ann@example.com', name: 'Ann' };

async function dropin(path: string, body?: unknown) {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (path === '/sessions') headers.authorization = `Bearer ${t.merchant.public_key}`;
  return t.api(`/api/dropin/v1${path}`, { key: null, headers, ...(body !== undefined ? { body } : {}) });
}

async function session(reference: string, crypto?: string): Promise<{ token: string; paymentId: string | null }> {
  const r = await dropin('/sessions', {
    amount: 25,
    customer,
    reference,
    ...(crypto ? { crypto_currency: crypto } : {}),
  });
  expect(r.status, r.text).toBe(201);
  return { token: r.json.data.session_token, paymentId: r.json.data.payment?.payment_id ?? null };
}

async function choose(token: string, currency: string) {
  return dropin(`/sessions/${token}/payment`, { currency });
}

/** The payment as the merchant API shows it. */
async function merchantView(id: string) {
  const r = await t.api(`/api/v1/payments/${id}`);
  expect(r.status, r.text).toBe(200);
  return r.json.data as { payment_status: string; status_detail?: string; actually_paid: number; pay_address: string };
}

async function waitingOf(orderId: string): Promise<string[]> {
  const rows = await t.service.deps.db
    .selectFrom('payments')
    .select('id')
    .where('merchant_id', '=', t.merchant.merchant_id)
    .where('order_id', '=', orderId)
    .where('status', '=', 'waiting')
    .execute();
  return rows.map((r) => r.id);
}

describe('abandoned choices expire the earlier payment', () => {
  it('choosing another asset expires the first payment (with its webhook event); one order, one waiting payment', async () => {
    const s = await session('AB-1');
    const btc = await choose(s.token, 'btc');
    expect(btc.status, btc.text).toBe(201);
    const first = btc.json.data.payment.payment_id as string;
    const ltc = await choose(s.token, 'ltc');
    expect(ltc.status, ltc.text).toBe(201);
    const second = ltc.json.data.payment.payment_id as string;
    expect(second).not.toBe(first);
    expect((await merchantView(first)).payment_status).toBe('expired');
    expect(await waitingOf('AB-1')).toEqual([second]);
    // The merchant hears of it like of any expiry: a payment.updated event in the outbox, with the next sequence.
    const events = await t.service.deps.db
      .selectFrom('payment_events')
      .select(['status', 'sequence'])
      .where('payment_id', '=', first)
      .orderBy('sequence')
      .execute();
    expect(events).toEqual([{ status: 'expired', sequence: 2 }]);
    // Back to the first asset: a new quote, and the LTC one expires in turn.
    const again = await choose(s.token, 'btc');
    expect(again.status).toBe(201);
    expect(await waitingOf('AB-1')).toEqual([again.json.data.payment.payment_id]);
  });

  it('the same order opened again (the popup was closed) expires the earlier session’s waiting payment', async () => {
    const a = await session('AB-2', 'btc');
    const other = await session('AB-other', 'btc');
    const b = await session('AB-2');
    // Opening alone changes nothing yet: the customer may still come back to the first quote... until choosing.
    expect(await waitingOf('AB-2')).toEqual([a.paymentId]);
    const chosen = await choose(b.token, 'doge');
    expect(chosen.status).toBe(201);
    expect(await waitingOf('AB-2')).toEqual([chosen.json.data.payment.payment_id]);
    expect((await merchantView(a.paymentId as string)).payment_status).toBe('expired');
    // Another order's payment is not touched.
    expect(await waitingOf('AB-other')).toEqual([other.paymentId]);
    // A preset asset on reopening does the same at once.
    const c = await session('AB-2', 'ltc');
    expect(await waitingOf('AB-2')).toEqual([c.paymentId]);
  });

  it('an expired abandoned payment whose address is paid in its window re-opens and finishes: nothing is lost', async () => {
    const s = await session('AB-3', 'btc');
    const first = await merchantView(s.paymentId as string);
    const p = await t.api(`/api/v1/payments/${s.paymentId}`);
    await choose(s.token, 'ltc');
    expect((await merchantView(s.paymentId as string)).payment_status).toBe('expired');
    // The customer had already sent BTC from a wallet: it is seen after the switch, inside the first quote's window.
    await t.api('/api/v1/sandbox/transfers', {
      body: { currency: 'BTC', address: first.pay_address, amount: String(p.json.data.pay_amount) },
    });
    await t.api('/api/v1/sandbox/blocks', { body: { count: 2, network: 'btc' } });
    await expect
      .poll(async () => (await merchantView(s.paymentId as string)).payment_status, { timeout: 10_000 })
      .toBe('finished');
  });

  it('a deposit already seen makes the choice final: 409, and no new payment is written', async () => {
    const s = await session('AB-4', 'btc');
    const first = await merchantView(s.paymentId as string);
    await t.api('/api/v1/sandbox/transfers', {
      body: { currency: 'BTC', address: first.pay_address, amount: '0.0001' },
    });
    await expect
      .poll(async () => (await merchantView(s.paymentId as string)).payment_status, { timeout: 10_000 })
      .toBe('confirming');
    const before = await t.service.deps.db.selectFrom('payments').select('id').execute();
    const r = await choose(s.token, 'ltc');
    expect(r.status).toBe(409);
    expect((await t.service.deps.db.selectFrom('payments').select('id').execute()).length).toBe(before.length);
    // Reopening the same order leaves a payment in flight alone.
    await session('AB-4', 'ltc');
    expect((await merchantView(s.paymentId as string)).payment_status).toBe('confirming');
  });

  it('a hosted page: another asset expires the link’s first payment; the new one is on its own page token', async () => {
    // A link that leaves the asset to the customer (made in the dashboard without one): its page offers the picker.
    const owner = await userOf(t, t.merchant.merchant_id, 'owner@abandon.example');
    const r = await owner.call(`/merchants/${t.merchant.merchant_id}/payment-links`, {
      body: { amount: 30, email: 'bo@example.com', order_id: 'AB-5' },
    });
    const url = new URL(r.json.data.hosted_payment_url);
    const first = url.pathname.split('/').pop() as string;
    const chosen = await choose(`pt_${first}.${url.searchParams.get('t')}`, 'ltc');
    expect(chosen.status, chosen.text).toBe(201);
    expect(chosen.json.data.session_token).toMatch(/^pt_/);
    expect((await merchantView(first)).payment_status).toBe('expired');
    expect(await waitingOf('AB-5')).toEqual([chosen.json.data.payment.payment_id]);
  });
});
