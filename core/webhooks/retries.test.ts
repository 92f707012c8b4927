import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../server/testing/harness.js';
import { ManualClock } from '../clock.js';
import { createMerchant } from '../merchants/merchants.js';
import { RETRY_AFTER_CAP_MS, RETRY_SCHEDULE_MS, retryDelayMs } from './schedule.js';
import { startReceiver, type TestReceiver } from './testing/receiver.js';

const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
let t: TestService;
const receivers: TestReceiver[] = [];

beforeAll(async () => {
  // Background work is not started: each step advances the injected clock, then runs the dispatcher to rest.
  t = await startTestService({ clock });
});
afterAll(async () => {
  await t?.close();
  for (const r of receivers) await r.close();
});

/** A merchant of its own with a real receiver, so each test reads only its own traffic. */
async function endpoint() {
  const rcv = await startReceiver('unset');
  receivers.push(rcv);
  const m = await createMerchant(t.service.deps.db, clock, { name: 'Shop', mode: 'test', webhookUrl: rcv.url });
  rcv.secret = m.webhook_secret;
  const sendTest = async () => {
    const r = await t.api('/api/v1/webhook-deliveries/test', { method: 'POST', key: m.secret_key });
    expect(r.status, r.text).toBe(202);
    return r.json.data.delivery_id as string;
  };
  return { rcv, m, sendTest };
}

const row = (id: string) =>
  t.service.deps.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const settle = () => t.service.webhooks.settle();

describe('retry schedule', () => {
  it('spreads each wait within +-20% of the docs/architecture.md schedule', () => {
    expect(RETRY_SCHEDULE_MS).toEqual([0, 5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 504e5, 72e6, 864e5]);
    for (let step = 1; step < RETRY_SCHEDULE_MS.length; step++) {
      const base = RETRY_SCHEDULE_MS[step] as number;
      expect(retryDelayMs(step, () => 0)).toBe(Math.round(base * 0.8));
      expect(retryDelayMs(step, () => 0.999999)).toBeLessThanOrEqual(Math.round(base * 1.2));
      expect(retryDelayMs(step, () => 0.5)).toBe(base);
    }
    expect(retryDelayMs(RETRY_SCHEDULE_MS.length, () => 0.5)).toBeNull();
  });

  it('retries a failing endpoint on the schedule with the same delivery id, then marks it failed, never dropped', async () => {
    const { rcv, m, sendTest } = await endpoint();
    rcv.reply = () => ({ status: 500 });
    const id = await sendTest();
    await settle();
    expect(rcv.received).toHaveLength(1);
    const waits: number[] = [];
    for (let attempt = 1; attempt < RETRY_SCHEDULE_MS.length; attempt++) {
      const d = await row(id);
      expect(d.status).toBe('pending');
      const due = d.next_attempt_at as number;
      const wait = due - clock.now();
      waits.push(wait);
      const base = RETRY_SCHEDULE_MS[attempt] as number;
      expect(wait, `wait before attempt ${attempt + 1}`).toBeGreaterThanOrEqual(Math.floor(base * 0.8));
      expect(wait, `wait before attempt ${attempt + 1}`).toBeLessThanOrEqual(Math.ceil(base * 1.2));
      clock.set(due - 1);
      await settle();
      expect(rcv.received, 'not before it is due').toHaveLength(attempt);
      clock.set(due);
      await settle();
      expect(rcv.received).toHaveLength(attempt + 1);
    }
    // Jitter is real: the waits are not exactly the schedule.
    expect(waits.filter((w, i) => w !== RETRY_SCHEDULE_MS[i + 1]).length).toBeGreaterThan(0);

    const d = await row(id);
    expect(d).toMatchObject({ status: 'failed', attempts: 10, next_attempt_at: null, last_status_code: 500 });
    expect(new Set(rcv.received.map((x) => x.headers['x-service-delivery']))).toEqual(new Set([id]));
    expect(rcv.received.every((x) => x.verified)).toBe(true);
    const stamps = rcv.received.map((x) => Number(x.headers['x-service-timestamp']));
    expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
    expect(new Set(stamps).size).toBe(10);

    const log = await t.api('/api/v1/webhook-deliveries?status=failed', { key: m.secret_key });
    expect(log.json.data.deliveries).toHaveLength(1);
    expect(log.json.data.deliveries[0].attempts.map((a: { response_code: number }) => a.response_code)).toEqual(
      Array(10).fill(500),
    );
    expect(log.json.data.deliveries[0].attempts[0].error).toBe('HTTP 500');

    // Failed is not the end: the merchant can still redeliver it, on a fresh schedule.
    rcv.reply = () => ({ status: 204 });
    expect(
      (await t.api(`/api/v1/webhook-deliveries/${id}/redeliver`, { method: 'POST', key: m.secret_key })).status,
    ).toBe(202);
    await settle();
    expect(await row(id)).toMatchObject({ status: 'succeeded', attempts: 11, last_status_code: 204 });
  });

  it('honours Retry-After, capped at one hour, but never retries sooner than the schedule', async () => {
    const { rcv, sendTest } = await endpoint();
    rcv.reply = () => ({ status: 503, headers: { 'retry-after': '120' } });
    const id = await sendTest();
    await settle();
    expect((await row(id)).next_attempt_at).toBe(clock.now() + 120_000);

    rcv.reply = () => ({ status: 429, headers: { 'retry-after': '86400' } });
    clock.advance(120_000);
    await settle();
    expect(rcv.received).toHaveLength(2);
    expect((await row(id)).next_attempt_at).toBe(clock.now() + RETRY_AFTER_CAP_MS);

    rcv.reply = () => ({
      status: 503,
      headers: { 'retry-after': new Date(clock.now() + RETRY_AFTER_CAP_MS + 60_000).toUTCString() },
    });
    clock.advance(RETRY_AFTER_CAP_MS);
    await settle();
    expect(rcv.received).toHaveLength(3);
    const wait = ((await row(id)).next_attempt_at as number) - clock.now();
    // Step 3 of the schedule is 30 min +-20%; an HTTP-date Retry-After of 61 min is capped to 60 min.
    expect(wait).toBe(RETRY_AFTER_CAP_MS);

    // A short Retry-After does not pull a retry before the schedule's own wait (step 4: 2 h +-20%).
    rcv.reply = () => ({ status: 503, headers: { 'retry-after': '1' } });
    clock.advance(RETRY_AFTER_CAP_MS);
    await settle();
    expect(rcv.received).toHaveLength(4);
    expect(((await row(id)).next_attempt_at as number) - clock.now()).toBeGreaterThanOrEqual(0.8 * 7_200_000);

    rcv.reply = () => ({ status: 200 });
    clock.advance(3 * 3_600_000);
    await settle();
    expect(await row(id)).toMatchObject({ status: 'succeeded', attempts: 5 });
  });
});

describe('410 Gone', () => {
  it('disables the endpoint and holds its deliveries until the merchant re-enables it', async () => {
    const { rcv, m, sendTest } = await endpoint();
    rcv.reply = () => ({ status: 410 });
    const first = await sendTest();
    await settle();
    expect(rcv.received).toHaveLength(1);
    const ep = await t.api('/api/v1/webhook-endpoint', { key: m.secret_key });
    expect(ep.json.data).toMatchObject({ url: rcv.url, enabled: false });

    const second = await sendTest(); // written while disabled: held, not lost
    clock.advance(48 * 3_600_000);
    await settle();
    expect(rcv.received).toHaveLength(1);
    expect(await row(first)).toMatchObject({ status: 'pending', last_status_code: 410 });
    expect((await row(first)).last_error).toMatch(/410/);

    rcv.reply = () => ({ status: 200 });
    const en = await t.api('/api/v1/webhook-endpoint/enable', { method: 'POST', key: m.secret_key });
    expect(en.status, en.text).toBe(200);
    expect(en.json.data.enabled).toBe(true);
    await settle();
    expect(new Set(rcv.received.slice(1).map((x) => x.headers['x-service-delivery']))).toEqual(
      new Set([first, second]),
    );
    expect(await row(first)).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(await row(second)).toMatchObject({ status: 'succeeded', attempts: 1 });
  });
});

describe('a slow endpoint', () => {
  let s: TestService;
  afterAll(async () => {
    await s?.close();
  });

  it("times out after the budget and never delays another merchant's deliveries", async () => {
    // Real clock and the running dispatcher here: the timeout is wall time.
    s = await startTestService({
      start: true,
      env: { WEBHOOK_TIMEOUT_MS: '1500', WEBHOOK_CONCURRENCY_PER_ENDPOINT: '4' },
    });
    const slow = await startReceiver('x');
    const fast = await startReceiver('x');
    receivers.push(slow, fast);
    slow.reply = () => ({ status: 200, hang: true });
    const a = await createMerchant(s.service.deps.db, s.service.deps.clock, {
      name: 'Slow',
      mode: 'test',
      webhookUrl: slow.url,
    });
    const b = await createMerchant(s.service.deps.db, s.service.deps.clock, {
      name: 'Fast',
      mode: 'test',
      webhookUrl: fast.url,
    });
    fast.secret = b.webhook_secret;
    for (let i = 0; i < 12; i++)
      expect((await s.api('/api/v1/webhook-deliveries/test', { method: 'POST', key: a.secret_key })).status).toBe(202);
    await slow.waitFor((all) => all.length >= 4);
    const sent = Date.now();
    expect((await s.api('/api/v1/webhook-deliveries/test', { method: 'POST', key: b.secret_key })).status).toBe(202);
    await fast.waitFor((all) => all.length === 1, 5_000);
    expect(fast.received[0]?.verified).toBe(true);
    expect((fast.received[0]?.at as number) - sent).toBeLessThan(1000);
    expect(slow.received.length, 'the slow endpoint holds at most its own slots').toBe(4);

    const log = await s.api('/api/v1/webhook-deliveries?limit=200', { key: a.secret_key });
    expect(log.json.data.deliveries).toHaveLength(12);
    await expect
      .poll(
        async () => {
          const l = await s.api('/api/v1/webhook-deliveries?limit=200', { key: a.secret_key });
          return l.json.data.deliveries
            .flatMap((d: { attempts: { error: string }[] }) => d.attempts)
            .filter((x: { error: string }) => /timed out after 1500 ms/.test(x.error)).length;
        },
        { timeout: 15_000, interval: 200 },
      )
      .toBeGreaterThanOrEqual(4);
  }, 30_000);
});
