import { describe, expect, it } from 'vitest';
import { createMerchant } from '../core/merchants/merchants.js';
import type { DashClient } from './testing/client.js';
import { base, create, owner, receiver, setUpDailyTool, shown, t, viewer } from './testing/daily-tool.js';

/*
 * Issue 23, the dashboard as a daily tool, over real HTTP on the real store (SQLite, or PostgreSQL with
 * TEST_DATABASE_URL), set up by testing/daily-tool.ts: search by what the list shows, deliveries that say what they
 * carry and what the receiver answered, their attempts streamed live, and failed ones redelivered by range.
 * daily-tool-pages.test.ts has the overview, payment links and the sorted, exported list.
 */

setUpDailyTool();

describe('search (walk item 4)', () => {
  it('finds a payment by the id prefix the list shows, by prefix…suffix, and by customer e-mail in any case', async () => {
    const a = (await create('search-a', 'Ann.Buyer@Example.com')).payment.payment_id;
    const b = (await create('search-b', 'bob@example.com')).payment.payment_id;
    const other = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Other', mode: 'test' });
    const theirs = (await create('search-theirs', 'ann.buyer@example.com', other.secret_key)).payment.payment_id;
    const ids = async (client: DashClient, q: string) => {
      const r = await client.call(`${base}/payments?q=${encodeURIComponent(q)}`);
      expect(r.status).toBe(200);
      return r.json.data.payments.map((p: { payment_id: string }) => p.payment_id).sort();
    };
    // The prefix alone: every payment of this merchant starting so (ids are random: b may share it, never theirs).
    expect(await ids(owner, a.slice(0, 8))).toContain(a);
    expect(await ids(owner, a.slice(0, 12))).toEqual([a]);
    expect(await ids(owner, a.slice(0, 12).toUpperCase())).toEqual([a]);
    expect(await ids(owner, shown(a))).toEqual([a]);
    expect(await ids(owner, `${a.slice(0, 8)}...${a.slice(-8)}`)).toEqual([a]);
    expect(await ids(owner, shown(b))).toEqual([b]);
    // A prefix with the right start and the wrong end finds nothing.
    expect(await ids(owner, `${a.slice(0, 8)}…zzzzzzzz`)).toEqual([]);
    expect(await ids(owner, 'ann.buyer@example.com')).toEqual([a]);
    expect(await ids(viewer, 'ANN.BUYER@EXAMPLE.COM')).toEqual([a]);
    // Another merchant's payment: neither its prefix nor its e-mail finds it here.
    expect(await ids(owner, shown(theirs))).toEqual([]);
    expect(await ids(owner, theirs.slice(0, 14))).toEqual([]);
    // `_` is not a wildcard: `pay_` followed by anything else is not a prefix of these ids.
    expect(await ids(owner, `pay${a.slice(3, 12).replace('_', 'x')}`)).toEqual([]);
  });

  it("refuses a bad search with the envelope; another merchant's list is 404", async () => {
    const r = await owner.call(`${base}/payments?q=${'x'.repeat(201)}`);
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({ success: false });
    expect(Object.keys(r.json.errors)).toEqual(['q']);
    const other = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Other 2', mode: 'test' });
    expect((await owner.call(`/merchants/${other.merchant_id}/payments?q=pay_ab`)).status).toBe(404);
  });
});

describe('deliveries (walk items 1, 2, 6)', () => {
  it('say which payment, status and sequence they carry, the payload as sent, and what the receiver answered', async () => {
    receiver.reply = (r) =>
      r.json?.payment?.order_id === 'delivery-500'
        ? { status: 500, body: 'receiver exploded: no such order' }
        : { status: 200 };
    const p = await create('delivery-500', 'd@buyer.example');
    const id = p.payment.payment_id;
    await t.api('/api/v1/sandbox/transfers', {
      body: { currency: 'BTC', address: p.blockchain.pay_address, amount: String(p.blockchain.pay_amount) },
    });
    await t.api('/api/v1/sandbox/blocks', { body: { count: 2, network: 'btc' } });
    await receiver.waitFor((all) =>
      all.some((w) => w.json?.payment?.payment_id === id && w.json.payment.payment_status === 'finished'),
    );
    type View = {
      payment_id: string;
      sequence: number;
      payment_status: string;
      payload: string;
      attempts: { response_code: number; response_excerpt: string; error: string }[];
    };
    let deliveries: View[] = [];
    await expect
      .poll(async () => {
        deliveries = (await viewer.call(`${base}/payments/${id}`)).json.data.deliveries;
        return deliveries.filter((d) => d.attempts.length > 0).length;
      })
      .toBeGreaterThanOrEqual(2);
    const finished = deliveries.find((d) => d.payment_status === 'finished');
    expect(finished).toMatchObject({ payment_id: id, payment_status: 'finished' });
    const sent = receiver.received.find(
      (w) => w.json?.payment?.payment_id === id && w.json.payment.payment_status === 'finished',
    );
    // The payload is the very body the receiver got (and whose signature it checked).
    expect(sent?.verified).toBe(true);
    expect(finished?.payload).toBe(sent?.body);
    expect(finished?.sequence).toBe(sent?.json.payment.sequence);
    expect(finished?.attempts[0]).toMatchObject({
      response_code: 500,
      error: 'HTTP 500',
      response_excerpt: 'receiver exploded: no such order',
    });
    // The delivery log says the same.
    const log = (await owner.call(`${base}/webhook-deliveries?limit=200`)).json.data.deliveries as View[];
    expect(log.find((d) => d.payload === sent?.body)).toMatchObject({ payment_id: id, payment_status: 'finished' });
    receiver.reply = () => ({ status: 200 });
  });

  it('streams each recorded attempt of this merchant as `event: delivery` (SSE)', async () => {
    const ctrl = new AbortController();
    const res = await fetch(`${t.url}/dashboard/api${base}/events`, {
      headers: { cookie: owner.cookie },
      signal: ctrl.signal,
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    const until = async (pred: () => boolean) => {
      while (!pred()) text += new TextDecoder().decode((await reader.read()).value);
    };
    await until(() => text.includes(': connected'));
    const sent = await owner.call(`${base}/webhook-deliveries/test`, { body: {} });
    expect(sent.status).toBe(202);
    const deliveryId: string = sent.json.data.delivery_id;
    await until(() => text.includes(deliveryId));
    ctrl.abort();
    expect(text).toContain(`event: delivery\ndata: {"delivery_id":"${deliveryId}"}`);
    // By the time the event came, the attempt is readable.
    const d = (await owner.call(`${base}/webhook-deliveries/${deliveryId}`)).json.data;
    expect(d.attempts).toHaveLength(1);
    expect(d.status).toBe('succeeded');
  });
});

describe('redeliver all failed in a range (what to build 5)', () => {
  it('queues again only the failed deliveries created in the range; owners only; bad input writes nothing', async () => {
    const db = t.service.deps.db;
    const sendTest = async () => (await owner.call(`${base}/webhook-deliveries/test`, { body: {} })).json.data;
    const inRange = await sendTest();
    const before = await sendTest();
    const succeeded = await sendTest();
    await expect
      .poll(async () =>
        (
          await db
            .selectFrom('webhook_deliveries')
            .select('status')
            .where('id', 'in', [inRange.delivery_id, before.delivery_id, succeeded.delivery_id])
            .execute()
        ).every((d) => d.status === 'succeeded'),
      )
      .toBe(true);
    // Retries exhausted (the schedule takes days): written as the dispatcher leaves them.
    await db
      .updateTable('webhook_deliveries')
      .set({ status: 'failed' })
      .where('id', 'in', [inRange.delivery_id, before.delivery_id])
      .execute();
    await db
      .updateTable('webhook_deliveries')
      .set({ created_at: Date.parse('2020-01-01T12:00:00Z') })
      .where('id', '=', before.delivery_id)
      .execute();
    const statuses = async () =>
      Object.fromEntries(
        (
          await db
            .selectFrom('webhook_deliveries')
            .select(['id', 'status'])
            .where('id', 'in', [inRange.delivery_id, before.delivery_id, succeeded.delivery_id])
            .execute()
        ).map((d) => [d.id, d.status]),
      );
    const snapshot = await statuses();
    const today = new Date().toISOString().slice(0, 10);
    const path = `${base}/webhook-deliveries/redeliver-failed`;

    const bad = await owner.call(path, { body: { from: 'yesterday', to: today, all: true } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json.errors).sort()).toEqual(['all', 'from']);
    const backwards = await owner.call(path, { body: { from: today, to: '2020-01-01' } });
    expect(backwards.status).toBe(422);
    expect(Object.keys(backwards.json.errors)).toEqual(['to']);
    expect((await owner.call(path, { body: '{' })).status).toBe(400);
    expect((await viewer.call(path, { body: { from: today, to: today } })).status).toBe(403);
    const other = await createMerchant(db, t.service.deps.clock, { name: 'Redeliver', mode: 'test' });
    expect(
      (
        await owner.call(`/merchants/${other.merchant_id}/webhook-deliveries/redeliver-failed`, {
          body: { from: today, to: today },
        })
      ).status,
    ).toBe(404);
    expect(await statuses()).toEqual(snapshot);

    const n = receiver.received.length;
    const r = await owner.call(path, { body: { from: today, to: today } });
    expect(r.status).toBe(202);
    expect(r.json.data).toEqual({ redelivered: 1 });
    await receiver.waitFor((all) => all.slice(n).some((w) => w.headers['x-service-delivery'] === inRange.delivery_id));
    await expect.poll(async () => (await statuses())[inRange.delivery_id]).toBe('succeeded');
    expect((await statuses())[before.delivery_id]).toBe('failed');
    expect(receiver.received.slice(n).some((w) => w.headers['x-service-delivery'] === before.delivery_id)).toBe(false);
  });
});
