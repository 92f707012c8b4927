import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../core/clock.js';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { type CreatedSession, DropinApi } from './api.js';
import * as chunks from './chunks.js';
import { CheckoutState } from './state.js';
import type { CheckoutError, CheckoutPayment } from './types.js';

/*
 * The popup's state machine against the real drop-in API over HTTP (no browser: live status falls back to polling,
 * as it does where EventSource is missing).
 */

const clock = new ManualClock(Date.now());
let t: TestService;
let api: DropinApi;
beforeAll(async () => {
  t = await startTestService({ clock });
  api = new DropinApi(t.url);
});
afterAll(async () => {
  await t?.close();
});

function recorder() {
  const seen = { success: [] as CheckoutPayment[], expired: [] as CheckoutPayment[], status: [] as string[] };
  const errors: CheckoutError[] = [];
  return {
    seen,
    errors,
    hooks: {
      onSuccess: (p: CheckoutPayment) => seen.success.push(p),
      onExpired: (p: CheckoutPayment) => seen.expired.push(p),
      onStatus: (p: CheckoutPayment) => seen.status.push(p.payment_status),
      onError: (e: CheckoutError) => errors.push(e),
    },
  };
}

const openSession = (crypto?: string) =>
  api.call<CreatedSession>('/sessions', {
    public_key: t.merchant.public_key,
    amount: 25,
    customer: { email: 'ann@example.com' },
    ...(crypto ? { crypto_currency: crypto } : {}),
  });

describe('CheckoutState', () => {
  it('shows the preset payment, ignores a stale sequence, and finishes once', async () => {
    const r = recorder();
    const s = new CheckoutState(api, r.hooks);
    await s.start(() => openSession('btc'));
    const first = s.payment.value as CheckoutPayment;
    expect(s.screen.value).toBe('pay');
    expect(first.sequence).toBe(1);

    const newer = { ...first, sequence: 3, payment_status: 'confirming' as const };
    s.update(newer);
    s.update({ ...first, sequence: 2, payment_status: 'waiting' });
    expect(s.payment.value?.sequence).toBe(3);
    expect(s.screen.value).toBe('pay');

    s.update({ ...newer, sequence: 4, payment_status: 'finished' });
    s.update({ ...newer, sequence: 5, payment_status: 'finished' });
    expect(s.screen.value).toBe('success');
    expect(r.seen.success).toHaveLength(1);
    expect(r.seen.status).toEqual(['waiting', 'confirming', 'finished']);
    s.dispose();
  });

  it('shows expiry at expires_at on its own clock, once, before the service sweeps', async () => {
    const r = recorder();
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    try {
      const s = new CheckoutState(api, r.hooks);
      await s.start(() => openSession('eth'));
      const p = s.payment.value as CheckoutPayment;
      vi.setSystemTime(Date.parse(p.expires_at) - 2000);
      vi.advanceTimersByTime(1000);
      expect(s.screen.value).toBe('pay');
      vi.setSystemTime(Date.parse(p.expires_at) + 1);
      vi.advanceTimersByTime(1000);
      expect(s.screen.value).toBe('expired');
      vi.advanceTimersByTime(5000);
      expect(r.seen.expired.map((x) => x.payment_id)).toEqual([p.payment_id]);
      s.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it('retries the live-status chunk when it failed to load, and then follows the payment', async () => {
    const r = recorder();
    let attempts = 0;
    const flaky = {
      ...chunks,
      loadLive: () => (attempts++ === 0 ? Promise.reject(new Error('offline')) : chunks.loadLive()),
    };
    const s = new CheckoutState(api, r.hooks, flaky);
    await s.start(() => openSession('ltc'));
    s.qrShown();
    // Paid while the chunk is missing: the status shows once the retried chunk polls.
    const p = s.payment.value as CheckoutPayment;
    const sent = await t.api('/api/v1/sandbox/transfers', {
      body: { currency: 'LTC', address: p.pay_address, amount: p.pay_amount },
    });
    expect(sent.status).toBe(201);
    await vi.waitFor(() => expect(s.payment.value?.payment_status).toBe('confirming'), { timeout: 10_000 });
    expect(attempts).toBe(2);
    expect(r.errors).toEqual([]);
    s.dispose();
  });

  it('a choice the service refuses keeps the picker on screen and reports the error', async () => {
    const r = recorder();
    const s = new CheckoutState(api, r.hooks);
    await s.start(() => openSession());
    expect(s.screen.value).toBe('picker');
    await s.choose('NOPE');
    expect(s.screen.value).toBe('picker');
    expect(r.errors.map((e) => e.code)).toEqual(['validation']);
    expect(s.error.value).toMatch(/currency/);
    s.dispose();
  });
});
