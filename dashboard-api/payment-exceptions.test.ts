import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageToken } from '../core/checkout/page-token.js';
import { ManualClock } from '../core/clock.js';
import { fromUnits, toUnits } from '../core/money/decimal.js';
import { startReceiver, type TestReceiver } from '../core/webhooks/testing/receiver.js';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { type DashClient, signIn, userOf } from './testing/client.js';

/*
 * Payment exceptions (issue 30 item 5) over HTTP on the real service, the sandbox chain and a real webhook receiver.
 * Test-mode BTC is 65000 USD: 50 USD is 50 / 65000 BTC = 0.000769230769... rounded up to 76924 sat.
 */

let t: TestService;
let rcv: TestReceiver;
let owner: DashClient;
let base: string;
const clock = new ManualClock(Date.UTC(2026, 10, 28, 9));
const DAY = 86_400_000;

beforeAll(async () => {
  rcv = await startReceiver('unknown-yet');
  t = await startTestService({ clock, start: true, webhookUrl: rcv.url });
  rcv.secret = t.merchant.webhook_secret;
  owner = await userOf(t, t.merchant.merchant_id, 'owner@shop.example');
  base = `/merchants/${t.merchant.merchant_id}`;
});
afterAll(async () => {
  await t?.close();
  await rcv?.close();
});

const db = () => t.service.deps.db;
/** Moves the test clock; the dashboard session would have idled out over it, so the owner signs in again. */
async function advance(ms: number) {
  clock.advance(ms);
  owner = await signIn(t.url, 'owner@shop.example');
}
const setTolerance = (body: unknown) => owner.call(`${base}/underpaid-tolerance`, { method: 'PUT', body });

async function newPayment(): Promise<{ id: string; address: string; units: bigint }> {
  const r = await t.api('/api/v1/payments', { body: { amount: 50, currency: 'btc', email: 'b@buyer.example' } });
  expect(r.status, r.text).toBe(201);
  const b = r.json.data.blockchain;
  expect(r.text).toContain('"pay_amount":0.00076924,');
  return { id: r.json.data.payment.payment_id, address: b.pay_address, units: 76924n };
}

/** Sends `units` sat to the address on the sandbox chain and mines it past the confirmations needed. */
async function pay(address: string, units: bigint) {
  const tr = await t.api('/api/v1/sandbox/transfers', {
    body: { currency: 'btc', address, amount: fromUnits(units, 8) },
  });
  expect(tr.status, tr.text).toBe(201);
  expect((await t.api('/api/v1/sandbox/blocks', { body: { network: 'btc', count: 2 } })).status).toBe(200);
}

/** The status read, its exact amounts as the digits sent (JSON numbers, compared as text). */
const status = async (id: string) => {
  const d = (await t.api(`/api/v1/payments/${id}`)).json.data;
  return { ...d, actually_paid: String(d.actually_paid), pay_amount: String(d.pay_amount) };
};
const auditOf = async (action: string) => (await owner.call(`${base}/audit?action=${action}`)).json.data.entries;

describe('underpaid tolerance', () => {
  it('within the basis points finishes, one unit outside stays partially paid', async () => {
    expect((await setTolerance({ bps: 200, usd: '0' })).status).toBe(200);
    // 2% of 76924 sat = 1538.48 -> 1538 sat accepted short.
    const a = await newPayment();
    await pay(a.address, a.units - 1538n);
    expect(await status(a.id)).toMatchObject({ payment_status: 'finished', status_detail: 'underpaid' });
    const b = await newPayment();
    await pay(b.address, b.units - 1539n);
    expect((await status(b.id)).payment_status).toBe('partially_paid');
    expect((await auditOf('settings.tolerance'))[0]).toMatchObject({
      actor: 'owner@shop.example',
      details: { bps: 200, usd: '0' },
    });
  });

  it("within the USD amount, converted with the payment's own quote, finishes; outside stays partially paid", async () => {
    const r = await setTolerance({ bps: 0, usd: '0.5' });
    expect(r.json.data).toEqual({ bps: 0, usd: '0.50' });
    expect((await owner.call(`${base}/underpaid-tolerance`)).json.data).toEqual({ bps: 0, usd: '0.50' });
    // 0.50 USD at 65000 USD/BTC = 769.23 sat -> 769 sat accepted short (rounded down, never more than set).
    const a = await newPayment();
    await pay(a.address, a.units - 769n);
    expect(await status(a.id)).toMatchObject({ payment_status: 'finished', actually_paid: '0.00076155' });
    const b = await newPayment();
    await pay(b.address, b.units - 770n);
    expect((await status(b.id)).payment_status).toBe('partially_paid');
  });

  it('refuses bad input with 422 naming the limit, and writes nothing', async () => {
    await setTolerance({ bps: 0, usd: '0' });
    const before = (await auditOf('settings.tolerance')).length;
    for (const [body, field, limit] of [
      [{ bps: 10001, usd: '0' }, 'bps', '10000'],
      [{ bps: 1.5, usd: '0' }, 'bps', '10000'],
      [{ bps: 0, usd: '1.234' }, 'usd', '2 decimals'],
      [{ bps: 0, usd: '10000.01' }, 'usd', '10000.00'],
      [{ bps: 0, usd: 5 }, 'usd', '2 decimals'],
    ] as const) {
      const r = await setTolerance(body);
      expect(r.status, r.text).toBe(422);
      expect(Object.keys(r.json.errors)).toEqual([field]);
      expect(r.json.errors[field][0]).toContain(limit);
    }
    expect((await owner.call(`${base}/underpaid-tolerance`)).json.data).toEqual({ bps: 0, usd: '0' });
    expect((await auditOf('settings.tolerance')).length).toBe(before);
  });
});

describe('accept as paid', () => {
  it('finishes a partially paid payment with its audit entry and webhook, and a later block keeps it finished', async () => {
    const p = await newPayment();
    await pay(p.address, 40000n);
    expect((await status(p.id)).payment_status).toBe('partially_paid');
    const seq = (await status(p.id)).sequence;
    const r = await owner.call(`${base}/payments/${p.id}/accept`, { body: {} });
    expect(r.status, r.text).toBe(200);
    expect(r.json.data.payment_status).toBe('finished');
    const after = await status(p.id);
    expect(after).toMatchObject({ payment_status: 'finished', status_detail: 'underpaid', actually_paid: '0.0004' });
    expect(after.sequence).toBe(seq + 1);
    const got = await rcv.waitFor((all) =>
      all.some((x) => x.json?.payment?.payment_id === p.id && x.json.payment.payment_status === 'finished'),
    );
    const hook = got.find((x) => x.json?.payment?.payment_id === p.id && x.json.payment.payment_status === 'finished');
    expect(hook?.verified).toBe(true);
    expect(hook?.json.payment.sequence).toBe(seq + 1);
    expect((await auditOf('payment.accept'))[0]).toMatchObject({
      actor: 'owner@shop.example',
      target: p.id,
      details: { status: 'finished' },
    });
    await t.api('/api/v1/sandbox/blocks', { body: { network: 'btc', count: 3 } });
    expect((await status(p.id)).payment_status).toBe('finished');
  });

  it('the merchant API accepts a late payment; a waiting one is a 400 and nothing changes', async () => {
    const waiting = await newPayment();
    const no = await t.api(`/api/v1/payments/${waiting.id}/accept`, { method: 'POST' });
    expect(no.status).toBe(400);
    expect((await status(waiting.id)).sequence).toBe(1);
    // Paid only after the window closed: expired, paid late.
    const late = await newPayment();
    await advance(2 * 3600_000);
    await pay(late.address, late.units);
    const before = await status(late.id);
    expect(before.status_detail).toBe('paid_late');
    expect(before.payment_status).not.toBe('finished');
    const r = await t.api(`/api/v1/payments/${late.id}/accept`, { method: 'POST' });
    expect(r.status, r.text).toBe(200);
    expect(r.json.data).toMatchObject({ payment_status: 'finished', status_detail: 'paid_late' });
    expect((await auditOf('payment.accept'))[0]).toMatchObject({ actor: 'API key', target: late.id });
  });
});

describe('ask for the rest', () => {
  const hosted = (id: string) =>
    fetch(`${t.url}/api/dropin/v1/sessions/pt_${id}.${pageToken(id, t.service.deps.settings.pageSecret)}`).then((r) =>
      r.json(),
    );

  it('keeps the exact remainder payable on the same address until the deadline, mails it, and a remainder in time finishes it', async () => {
    const p = await newPayment();
    await pay(p.address, 30000n);
    const seq = (await status(p.id)).sequence;
    await advance(3600_000); // the first window (20 minutes and grace) is over
    const deadline = new Date(clock.now() + 2 * DAY).toISOString();
    const r = await owner.call(`${base}/payments/${p.id}/ask-rest`, { body: { deadline } });
    expect(r.status, r.text).toBe(200);
    const s = await status(p.id);
    expect(s).toMatchObject({ payment_status: 'partially_paid', expires_at: deadline });
    expect(s.sequence).toBe(seq + 1);
    const page = await hosted(p.id);
    expect(page.data.payment).toMatchObject({
      remaining_amount: '0.00046924',
      pay_address: p.address,
      expires_at: deadline,
    });
    const mail = await db()
      .selectFrom('mail_outbox')
      .selectAll()
      .where('kind', '=', 'rest_requested')
      .where('to_address', '=', 'b@buyer.example')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(mail.text_body).toContain('0.00046924 BTC');
    expect(mail.text_body).toContain(`${deadline.slice(0, 10)} ${deadline.slice(11, 16)} UTC`);
    const got = await rcv.waitFor((all) =>
      all.some((x) => x.json?.payment?.payment_id === p.id && x.json.payment.sequence === seq + 1),
    );
    expect(got.find((x) => x.json?.payment?.sequence === seq + 1 && x.json.payment.payment_id === p.id)?.verified).toBe(
      true,
    );
    expect((await auditOf('payment.ask_rest'))[0]).toMatchObject({ target: p.id, actor: 'owner@shop.example' });

    await advance(DAY);
    await pay(p.address, 46924n);
    expect(await status(p.id)).toMatchObject({
      payment_status: 'finished',
      status_detail: 'none',
      actually_paid: '0.00076924',
    });
  });

  it('after the deadline the remainder is late (merchant API), and bad deadlines are 422 naming the limit', async () => {
    const p = await newPayment();
    await pay(p.address, 30000n);
    const seq = (await status(p.id)).sequence;
    for (const [deadline, limit] of [
      [new Date(clock.now() + 31 * DAY).toISOString(), '30 days'],
      [new Date(clock.now() - 1000).toISOString(), 'after now'],
      ['tomorrow', 'ISO 8601'],
    ]) {
      const bad = await t.api(`/api/v1/payments/${p.id}/ask-rest`, { body: { deadline } });
      expect(bad.status, bad.text).toBe(422);
      expect(bad.json.errors.deadline[0]).toContain(limit);
    }
    expect((await status(p.id)).sequence).toBe(seq);

    const deadline = new Date(clock.now() + DAY).toISOString();
    const r = await t.api(`/api/v1/payments/${p.id}/ask-rest`, { body: { deadline } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.data.expires_at).toBe(deadline);
    await advance(2 * DAY);
    await pay(p.address, 46924n);
    expect(await status(p.id)).toMatchObject({ payment_status: 'partially_paid', status_detail: 'paid_late' });
  });
});

describe('refunded amounts in the CSV export and the overview', () => {
  it('a refund of the excess, once seen on chain, shows per payment in the CSV and per asset in the overview, exact digits', async () => {
    const customer = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
    const p = await newPayment();
    await pay(p.address, p.units + 1234n);
    expect((await status(p.id)).status_detail).toBe('overpaid');
    const before = (await owner.call(`${base}/overview`)).json.data.periods[0].refunded;
    // No amount: the refund is exactly the excess.
    const r = await owner.call(`${base}/payments/${p.id}/refunds`, { body: { address: customer } });
    expect(r.status, r.text).toBe(201);
    expect(r.json.data.amount_units).toBe('1234');
    const row = async () => {
      const csv = (await owner.call(`${base}/exports/payments.csv`)).text.trim().split('\r\n');
      const head = (csv[0] ?? '').split(',');
      const line = csv.find((l) => l.includes(p.id)) ?? '';
      return JSON.parse(line.split(',')[head.indexOf('refunded')] ?? '""');
    };
    expect(await row()).toBe('0');
    await pay(customer, 1234n);
    expect(await row()).toBe('0.00001234');
    const [today] = (await owner.call(`${base}/overview`)).json.data.periods;
    const units = (list: { asset: string; amount: string }[]) =>
      toUnits(list.find((x) => x.asset === 'BTC')?.amount ?? '0', 8) as bigint;
    expect(units(today.refunded) - units(before)).toBe(1234n);
    expect(today.refunded.find((x: { asset: string }) => x.asset === 'BTC').amount).toMatch(/^\d+\.\d{1,8}$/);
  });
});
