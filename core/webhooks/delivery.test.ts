import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../server/testing/harness.js';
import { ManualClock } from '../clock.js';
import { createMerchant } from '../merchants/merchants.js';
import { startReceiver, type TestReceiver } from './testing/receiver.js';
import { verifyWebhook } from './verify.js';

let t: TestService;
let rcv: TestReceiver;
const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));

beforeAll(async () => {
  rcv = await startReceiver('unknown-yet');
  t = await startTestService({ clock, start: true, webhookUrl: rcv.url });
  rcv.secret = t.merchant.webhook_secret;
});
afterAll(async () => {
  await t?.close();
  await rcv?.close();
});

async function paidPayment(currency = 'btc', amount = 100) {
  const r = await t.api('/api/v1/payments', {
    body: { amount, currency, email: 'bob@example.com', name: 'Bob', order_id: 'order-1' },
  });
  expect(r.status, r.text).toBe(201);
  const d = r.json.data;
  const payAmount = /"pay_amount":([0-9.]+)/.exec(r.text)?.[1] as string;
  const tr = await t.api('/api/v1/sandbox/transfers', {
    body: { currency, address: d.blockchain.pay_address, amount: payAmount },
  });
  expect(tr.status, tr.text).toBe(201);
  const mined = await t.api('/api/v1/sandbox/blocks', { body: { network: d.blockchain.network, count: 2 } });
  expect(mined.status, mined.text).toBe(200);
  return { id: d.payment.payment_id as string, payAmount, address: d.blockchain.pay_address as string };
}

const forPayment = (id: string) => rcv.received.filter((x) => x.json?.payment?.payment_id === id);

describe('payment.updated deliveries', () => {
  it('sends every status change with exactly the API headers, a valid signature and the stored payload', async () => {
    const p = await paidPayment();
    await rcv.waitFor(() => forPayment(p.id).length >= 2);
    const got = forPayment(p.id).sort((a, b) => a.json.payment.sequence - b.json.payment.sequence);
    expect(got.map((g) => g.json.payment.payment_status)).toEqual(['confirming', 'finished']);
    expect(got.map((g) => g.json.payment.sequence)).toEqual([2, 3]);

    const events = await t.service.deps.db
      .selectFrom('payment_events')
      .selectAll()
      .where('payment_id', '=', p.id)
      .orderBy('sequence')
      .execute();
    for (const [i, g] of got.entries()) {
      expect(g.verified).toBe(true);
      const serviceHeaders = Object.keys(g.headers)
        .filter((h) => h.startsWith('x-service-'))
        .sort();
      expect(serviceHeaders).toEqual([
        'x-service-delivery',
        'x-service-event',
        'x-service-signature',
        'x-service-timestamp',
      ]);
      expect(g.headers['x-service-event']).toBe('payment.updated');
      expect(g.headers['x-service-delivery']).toMatch(/^dlv_[0-9a-z]{20}$/);
      expect(g.headers['x-service-timestamp']).toBe(String(Math.floor(clock.now() / 1000)));
      expect(g.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(g.headers['content-type']).toBe('application/json');
      // Byte for byte what the outbox stored in the payment's transaction; the payload id is the event id.
      expect(g.body).toBe(events[i]?.payload);
      expect(g.json.id).toBe(events[i]?.id);
    }

    const fin = got[1]?.json;
    expect(Object.keys(fin).sort()).toEqual(['created_at', 'event', 'id', 'merchant', 'payment', 'source']);
    expect(fin.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(fin.event).toBe('payment.updated');
    expect(fin.source).toBe('crypto-payments-service');
    expect(fin.merchant).toEqual({ user_id: t.merchant.merchant_id });
    expect(fin.created_at).toBe(new Date(clock.now()).toISOString());
    for (const k of [
      'payment_id',
      'invoice_id',
      'purchase_id',
      'payment_status',
      'price_amount',
      'price_currency',
      'pay_amount',
      'pay_currency',
      'actually_paid',
      'pay_address',
      'network',
      'confirmed_at',
      'customer',
      'sequence',
      'status_detail',
      'updated_at',
    ]) {
      expect(fin.payment, k).toHaveProperty(k);
    }
    expect(fin.payment).toMatchObject({
      payment_status: 'finished',
      status_detail: 'none',
      price_amount: 100,
      price_currency: 'USD',
      pay_currency: 'BTC',
      pay_address: p.address,
      network: 'btc',
      customer: { name: 'Bob', email: 'bob@example.com' },
    });
    expect(fin.payment.confirmed_at).toBe(new Date(clock.now()).toISOString());
    // Exact amounts: the same digits as the API returned, as JSON numbers.
    expect(got[1]?.body).toContain(`"pay_amount":${p.payAmount},`);
    expect(got[1]?.body).toContain(`"actually_paid":${p.payAmount},`);

    // The receiver helper accepts it and returns the typed event.
    const ev = verifyWebhook(
      got[1]?.body as string,
      got[1]?.headers as Record<string, string>,
      t.merchant.webhook_secret,
      { now: clock.now() },
    );
    expect(ev.payment.payment_status).toBe('finished');
  });

  it('sends a change of actually_paid and status_detail even when the status stays the same', async () => {
    const p = await paidPayment('doge', 30);
    await rcv.waitFor(() => forPayment(p.id).some((x) => x.json.payment.payment_status === 'finished'));
    // A second deposit after `finished`: still finished, but more was paid (overpaid).
    expect(
      (
        await t.api('/api/v1/sandbox/transfers', {
          body: { currency: 'doge', address: p.address, amount: p.payAmount },
        })
      ).status,
    ).toBe(201);
    await t.api('/api/v1/sandbox/blocks', { body: { network: 'doge', count: 2 } });
    await rcv.waitFor(() => forPayment(p.id).some((x) => x.json.payment.status_detail === 'overpaid'));
    const last = forPayment(p.id).find((x) => x.json.payment.status_detail === 'overpaid');
    expect(last?.verified).toBe(true);
    expect(last?.json.payment.payment_status).toBe('finished');
    expect(last?.json.payment.sequence).toBeGreaterThan(3);
    expect(last?.json.payment.actually_paid).toBeGreaterThan(Number(p.payAmount));
    const events = await t.service.deps.db
      .selectFrom('payment_events')
      .select('id')
      .where('payment_id', '=', p.id)
      .execute();
    await rcv.waitFor(
      () => new Set(forPayment(p.id).map((x) => x.headers['x-service-delivery'])).size === events.length,
    );
  });

  it('signs so that an independent implementation (Python hmac) agrees', async () => {
    const g = rcv.received.find((x) => x.verified);
    expect(g).toBeDefined();
    const py = [
      'import hmac, hashlib, sys',
      'body = sys.stdin.buffer.read()',
      'msg = sys.argv[2].encode() + b"." + body',
      'print("sha256=" + hmac.new(sys.argv[1].encode(), msg, hashlib.sha256).hexdigest())',
    ].join('\n');
    const out = execFileSync(
      'python3',
      ['-c', py, t.merchant.webhook_secret, String(g?.headers['x-service-timestamp'])],
      { input: Buffer.from(g?.body ?? '', 'utf8') },
    );
    expect(out.toString().trim()).toBe(g?.headers['x-service-signature']);
  });

  it('shows the delivery log with attempts, filters and pages it', async () => {
    const p = await paidPayment('ltc', 20);
    await rcv.waitFor(() => forPayment(p.id).length >= 2);
    const log = await t.api(`/api/v1/webhook-deliveries?payment_id=${p.id}`);
    expect(log.status, log.text).toBe(200);
    const ds = log.json.data.deliveries;
    expect(ds).toHaveLength(2);
    await expect
      .poll(
        async () =>
          (await t.api(`/api/v1/webhook-deliveries?payment_id=${p.id}&status=succeeded`)).json.data.deliveries.length,
      )
      .toBe(2);
    const fresh = (await t.api(`/api/v1/webhook-deliveries?payment_id=${p.id}`)).json.data.deliveries;
    for (const d of fresh) {
      expect(d).toMatchObject({
        payment_id: p.id,
        status: 'succeeded',
        attempt_count: 1,
        last_response_code: 200,
        last_error: null,
        test: false,
      });
      expect(d.attempts).toHaveLength(1);
      expect(d.attempts[0]).toMatchObject({ attempt: 1, response_code: 200, error: null, url: rcv.url });
      expect(typeof d.attempts[0].duration_ms).toBe('number');
    }
    expect(fresh.map((d: { sequence: number }) => d.sequence).sort()).toEqual([2, 3]);
    expect((await t.api(`/api/v1/webhook-deliveries?payment_id=${p.id}&status=failed`)).json.data.deliveries).toEqual(
      [],
    );

    const page1 = await t.api('/api/v1/webhook-deliveries?limit=1');
    expect(page1.json.data.deliveries).toHaveLength(1);
    const page2 = await t.api(`/api/v1/webhook-deliveries?limit=1&cursor=${page1.json.data.next_cursor}`);
    expect(page2.json.data.deliveries).toHaveLength(1);
    expect(page2.json.data.deliveries[0].delivery_id).not.toBe(page1.json.data.deliveries[0].delivery_id);
  });

  it('redelivers with the same delivery id and a fresh timestamp and signature', async () => {
    const first = rcv.received.find(
      (x) => x.json?.payment?.payment_status === 'finished',
    ) as (typeof rcv.received)[number];
    const id = String(first.headers['x-service-delivery']);
    clock.advance(90_000);
    const before = rcv.received.length;
    const r = await t.api(`/api/v1/webhook-deliveries/${id}/redeliver`, { method: 'POST' });
    expect(r.status, r.text).toBe(202);
    expect(r.json.data.delivery_id).toBe(id);
    await rcv.waitFor((all) => all.slice(before).some((x) => x.headers['x-service-delivery'] === id));
    const again = rcv.received
      .slice(before)
      .find((x) => x.headers['x-service-delivery'] === id) as (typeof rcv.received)[number];
    expect(again.verified).toBe(true);
    expect(again.body).toBe(first.body);
    expect(Number(again.headers['x-service-timestamp'])).toBe(Number(first.headers['x-service-timestamp']) + 90);
    expect(again.headers['x-service-signature']).not.toBe(first.headers['x-service-signature']);
    await expect.poll(async () => (await t.api(`/api/v1/webhook-deliveries/${id}`)).json.data.attempts.length).toBe(2);
  });

  it('sends a test event on request, signed like a real one', async () => {
    const before = rcv.received.length;
    const r = await t.api('/api/v1/webhook-deliveries/test', { method: 'POST' });
    expect(r.status, r.text).toBe(202);
    await rcv.waitFor((all) => all.slice(before).some((x) => x.json?.test === true));
    const got = rcv.received.slice(before).find((x) => x.json?.test === true);
    expect(got?.verified).toBe(true);
    expect(got?.headers['x-service-delivery']).toBe(r.json.data.delivery_id);
    expect(got?.json.payment.payment_status).toBe('finished');
  });
});

describe('delivery routes: errors and auth', () => {
  it('refuses bad filters with 422 per field and unknown ids with 404', async () => {
    const bad = await t.api('/api/v1/webhook-deliveries?status=bogus&limit=0');
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json.errors).sort()).toEqual(['limit', 'status']);
    const cur = await t.api('/api/v1/webhook-deliveries?cursor=nonsense');
    expect(cur.status).toBe(422);
    expect(cur.json.errors.cursor).toBeDefined();
    expect((await t.api('/api/v1/webhook-deliveries/dlv_nope/redeliver', { method: 'POST' })).status).toBe(404);
    expect((await t.api('/api/v1/webhook-deliveries/dlv_nope')).status).toBe(404);
  });

  it("keeps each merchant's deliveries to itself", async () => {
    const other = await createMerchant(t.service.deps.db, clock, { name: 'Other', mode: 'test' });
    const mine = (await t.api('/api/v1/webhook-deliveries')).json.data.deliveries[0].delivery_id;
    expect((await t.api('/api/v1/webhook-deliveries', { key: other.secret_key })).json.data.deliveries).toEqual([]);
    expect(
      (await t.api(`/api/v1/webhook-deliveries/${mine}/redeliver`, { method: 'POST', key: other.secret_key })).status,
    ).toBe(404);
    // No webhook URL: a test event cannot be sent, and nothing is written.
    const none = await t.api('/api/v1/webhook-deliveries/test', { method: 'POST', key: other.secret_key });
    expect(none.status).toBe(400);
    expect(
      await t.service.deps.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('merchant_id', '=', other.merchant_id)
        .execute(),
    ).toEqual([]);
  });

  it('answers 401 without a secret key', async () => {
    expect((await t.api('/api/v1/webhook-deliveries', { key: null })).status).toBe(401);
    expect((await t.api('/api/v1/webhook-deliveries/test', { method: 'POST', key: null })).status).toBe(401);
  });
});
