import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../server/testing/harness.js';
import { ManualClock } from '../clock.js';
import { pruneDeliveredWebhooks } from './retention.js';
import { startReceiver, type TestReceiver } from './testing/receiver.js';

const DAY = 24 * 60 * 60 * 1000;
let t: TestService;
let rcv: TestReceiver;
const clock = new ManualClock(Date.UTC(2026, 0, 10, 12));

beforeAll(async () => {
  rcv = await startReceiver('unknown-yet');
  // Only the dispatcher runs: the service's own hourly retention must not prune behind the test's back.
  t = await startTestService({ clock, webhookUrl: rcv.url });
  rcv.secret = t.merchant.webhook_secret;
  t.service.webhooks.start();
});
afterAll(async () => {
  await t?.close();
  await rcv?.close();
});

async function paidPayment(): Promise<string> {
  const r = await t.api('/api/v1/payments', { body: { amount: 30, currency: 'btc', email: 'r@example.com' } });
  const amount = /"pay_amount":([0-9.]+)/.exec(r.text)?.[1];
  const d = r.json.data;
  await t.api('/api/v1/sandbox/transfers', { body: { currency: 'btc', address: d.blockchain.pay_address, amount } });
  await t.api('/api/v1/sandbox/blocks', { body: { network: 'btc', count: 2 } });
  const id = d.payment.payment_id as string;
  await rcv.waitFor((all) => all.filter((x) => x.json?.payment?.payment_id === id).length >= 2);
  return id;
}

const count = async (table: 'payments' | 'deposits' | 'payment_events' | 'webhook_attempts' | 'webhook_deliveries') =>
  Number(
    (
      await t.service.deps.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function deliveriesOf(paymentId: string) {
  const r = await t.api(`/api/v1/webhook-deliveries?payment_id=${paymentId}`);
  return r.json.data.deliveries as { delivery_id: string; status: string }[];
}

async function settled(paymentId: string) {
  for (let i = 0; i < 100; i++) {
    const list = await deliveriesOf(paymentId);
    if (list.length === 2 && list.every((d) => d.status === 'succeeded')) return list;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`deliveries of ${paymentId} did not settle`);
}

describe('webhook retention', () => {
  it('prunes delivered deliveries and their attempts past the retention, in batches; keeps the rest and all payment history', async () => {
    const old1 = await paidPayment();
    const old2 = await paidPayment();
    const oldDeliveries = [...(await settled(old1)), ...(await settled(old2))];
    // A delivery that is not delivered (its endpoint fails) is kept however old it is.
    rcv.reply = (r) => ({ status: r.json?.test === true ? 500 : 200 });
    expect((await t.api('/api/v1/webhook-deliveries/test', { method: 'POST' })).status).toBe(202);
    await rcv.waitFor((all) => all.some((x) => x.json?.test === true));

    clock.advance(31 * DAY);
    const recent = await paidPayment();
    await settled(recent);
    const before = {
      payments: await count('payments'),
      deposits: await count('deposits'),
      events: await count('payment_events'),
      deliveries: await count('webhook_deliveries'),
      attempts: await count('webhook_attempts'),
    };

    const pruned = await pruneDeliveredWebhooks(t.service.deps.db, clock.now() - 30 * DAY, {
      batchSize: 3,
      pauseMs: 0,
    });
    expect(pruned).toBe(4);
    for (const d of oldDeliveries)
      expect((await t.api(`/api/v1/webhook-deliveries/${d.delivery_id}`)).status).toBe(404);
    expect(await settled(recent)).toHaveLength(2);
    const failing = (await t.api('/api/v1/webhook-deliveries?status=pending')).json.data.deliveries;
    expect(failing).toHaveLength(1);
    expect(await count('webhook_deliveries')).toBe(before.deliveries - 4);
    expect(await count('webhook_attempts')).toBe(before.attempts - 4);
    expect(await count('payments')).toBe(before.payments);
    expect(await count('deposits')).toBe(before.deposits);
    expect(await count('payment_events')).toBe(before.events);
    // Payment history stays readable.
    expect((await t.api(`/api/v1/payments/${old1}`)).json.data.payment_status).toBe('finished');

    expect(await pruneDeliveredWebhooks(t.service.deps.db, clock.now() - 30 * DAY)).toBe(0);
  });
});
