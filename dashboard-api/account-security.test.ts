import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../core/clock.js';
import { createMerchant } from '../core/merchants/merchants.js';
import { addUser, deactivateUser, resetPassword } from '../core/users/accounts.js';
import { membershipsOf } from '../core/users/memberships.js';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { type DashClient, dashFetch, signIn, TEST_PASSWORD, userOf } from './testing/client.js';

/*
 * The outside security review's findings on dashboard accounts (issue 23, items 11-14), each reproduced over HTTP.
 */

let t: TestService;
const clock = new ManualClock(Date.now());
const WINDOW = 15 * 60_000 + 1000;

beforeAll(async () => {
  t = await startTestService({ clock });
});
afterAll(async () => {
  await t.close();
});

const trySignIn = (email: string, password: string) => dashFetch(t.url, '/session', { body: { email, password } });

describe('sign-in limits hold against parallel requests (item 11)', () => {
  it('30 concurrent tries (29 wrong, then the right one): at most 5 passwords are checked, the rest answer 429', async () => {
    await addUser(t.service.deps, {
      merchantId: t.merchant.merchant_id,
      email: 'par@shop.example',
      role: 'owner',
      password: TEST_PASSWORD,
    });
    const tries = [
      ...Array.from({ length: 29 }, (_, i) => trySignIn('par@shop.example', `wrong guess ${i}`)),
      trySignIn('par@shop.example', TEST_PASSWORD),
    ];
    const statuses = (await Promise.all(tries)).map((r) => r.status);
    const checked = statuses.filter((s) => s === 200 || s === 401).length;
    expect(checked).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(25);
    expect((await trySignIn('par@shop.example', TEST_PASSWORD)).status).toBe(429);
    clock.advance(WINDOW);
    expect((await trySignIn('par@shop.example', TEST_PASSWORD)).status).toBe(200);
  });

  it('a success does not spend the address: 21 good sign-ins in a row all pass', async () => {
    for (let i = 0; i < 21; i++) expect((await trySignIn('par@shop.example', TEST_PASSWORD)).status).toBe(200);
  });
});

describe('a link-mode reset clears the old password at once (item 12)', () => {
  it('after `user reset-password` without a password, the old password no longer signs in, before the link is used', async () => {
    await addUser(t.service.deps, {
      merchantId: t.merchant.merchant_id,
      email: 'leak@shop.example',
      role: 'owner',
      password: TEST_PASSWORD,
    });
    const before = await signIn(t.url, 'leak@shop.example');
    const { passwordToken } = await resetPassword(t.service.deps, 'leak@shop.example');
    expect(passwordToken).toMatch(/^pw_/);
    expect((await trySignIn('leak@shop.example', TEST_PASSWORD)).status).toBe(401);
    expect((await before.call('/session')).json.data).toBeNull();
    expect(
      (await dashFetch(t.url, '/password', { body: { token: passwordToken, password: 'a brand new password' } }))
        .status,
    ).toBe(200);
    expect((await trySignIn('leak@shop.example', 'a brand new password')).status).toBe(200);
    clock.advance(WINDOW);
  });
});

describe('deactivation everywhere is final for the old access (item 13)', () => {
  it('a deactivated user given a new role gets that role only, and not the old password', async () => {
    const other = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Second', mode: 'test' });
    await addUser(t.service.deps, {
      merchantId: t.merchant.merchant_id,
      email: 'gone@shop.example',
      role: 'owner',
      password: TEST_PASSWORD,
    });
    await addUser(t.service.deps, { merchantId: other.merchant_id, email: 'gone@shop.example', role: 'owner' });
    await deactivateUser(t.service.deps, 'gone@shop.example');
    const back = await addUser(t.service.deps, {
      merchantId: other.merchant_id,
      email: 'gone@shop.example',
      role: 'viewer',
    });
    expect(back.passwordToken).toMatch(/^pw_/);
    expect((await trySignIn('gone@shop.example', TEST_PASSWORD)).status).toBe(401);
    expect((await membershipsOf(t.service.deps.db, back.user.id)).map((m) => `${m.merchant_id}:${m.role}`)).toEqual([
      `${other.merchant_id}:viewer`,
    ]);
    await dashFetch(t.url, '/password', { body: { token: back.passwordToken, password: 'a fresh password!' } });
    const c = await signIn(t.url, 'gone@shop.example', 'a fresh password!');
    expect((await c.call(`/merchants/${t.merchant.merchant_id}/payments`)).status).toBe(404);
    expect((await c.call(`/merchants/${other.merchant_id}/keys`, { body: { kind: 'secret' } })).status).toBe(403);
    clock.advance(WINDOW);
  });

  it('an old set-password link dies with the deactivation', async () => {
    const added = await addUser(t.service.deps, {
      merchantId: t.merchant.merchant_id,
      email: 'link@shop.example',
      role: 'owner',
    });
    await deactivateUser(t.service.deps, 'link@shop.example');
    await addUser(t.service.deps, { merchantId: t.merchant.merchant_id, email: 'link@shop.example', role: 'viewer' });
    const r = await dashFetch(t.url, '/password', {
      body: { token: added.passwordToken, password: 'a long password' },
    });
    expect(r.status).toBe(404);
  });
});

/** Opens the payment event stream and collects its text until it ends or `ms` pass. */
async function collectStream(c: DashClient, ms: number, during: () => Promise<void>) {
  const ctrl = new AbortController();
  const res = await fetch(`${t.url}/dashboard/api/merchants/${t.merchant.merchant_id}/events`, {
    headers: { cookie: c.cookie },
    signal: ctrl.signal,
  });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let text = '';
  let ended = false;
  const reading = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      ended = true;
    } catch {
      // aborted below
    }
  })();
  while (!text.includes(': connected')) await new Promise((r) => setTimeout(r, 10));
  await during();
  const timer = setTimeout(() => ctrl.abort(), ms);
  await reading;
  clearTimeout(timer);
  return { text, ended };
}

const newPayment = async (orderId: string) =>
  (await t.api('/api/v1/payments', { body: { amount: 10, currency: 'btc', email: 'b@x.example', order_id: orderId } }))
    .json.data.payment.payment_id as string;

describe('an open event stream stops at sign-out and deactivation (item 14)', () => {
  it('sends a payment while signed in; after sign-out the next change is not sent and the stream ends', async () => {
    const c = await userOf(t, t.merchant.merchant_id, 'stream@shop.example', 'viewer');
    const { text: seen } = await collectStream(c, 1500, async () => {
      await newPayment('while-in');
    });
    expect(seen).toContain('while-in');
    const { text, ended } = await collectStream(c, 3000, async () => {
      expect((await c.call('/session', { method: 'DELETE' })).status).toBe(200);
      await newPayment('after-sign-out');
    });
    expect(text).not.toContain('after-sign-out');
    expect(ended).toBe(true);
  });

  it('after the user is deactivated, the next change is not sent and the stream ends', async () => {
    const c = await userOf(t, t.merchant.merchant_id, 'stream2@shop.example', 'viewer');
    const { text, ended } = await collectStream(c, 3000, async () => {
      await deactivateUser(t.service.deps, 'stream2@shop.example');
      await newPayment('after-deactivation');
    });
    expect(text).not.toContain('after-deactivation');
    expect(ended).toBe(true);
  });
});
