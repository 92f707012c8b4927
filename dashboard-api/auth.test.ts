import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../core/clock.js';
import { createMerchant } from '../core/merchants/merchants.js';
import { addUser } from '../core/users/accounts.js';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../core/users/sessions.js';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { dashFetch, signIn, TEST_PASSWORD, userOf } from './testing/client.js';

let t: TestService;
const clock = new ManualClock(Date.now());

beforeAll(async () => {
  t = await startTestService({ clock });
});
afterAll(async () => {
  await t.close();
});

const countRows = async (table: 'dashboard_sessions' | 'merchants') =>
  Number(
    (
      await t.service.deps.db
        .selectFrom(table)
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('sign-in and sessions', () => {
  it('signs in with e-mail and password into an HttpOnly, SameSite=Lax cookie scoped to /dashboard; the page gets the CSRF token, never the session token', async () => {
    await addUser(t.service.deps, {
      merchantId: t.merchant.merchant_id,
      email: 'Ann@Shop.example',
      role: 'owner',
      password: TEST_PASSWORD,
    });
    const r = await dashFetch(t.url, '/session', { body: { email: 'ann@shop.example', password: TEST_PASSWORD } });
    expect(r.status).toBe(200);
    const cookie = r.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^dashboard_session=ds_[\w-]+;/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/dashboard/);
    expect(cookie).not.toMatch(/Secure/); // PUBLIC_URL is http here
    const token = cookie.split(';')[0]?.split('=')[1] ?? '';
    expect(r.text).not.toContain(token);
    expect(r.json.data).toMatchObject({
      email: 'ann@shop.example',
      merchants: [{ merchant_id: t.merchant.merchant_id, name: 'Test shop', mode: 'test', role: 'owner' }],
    });
    expect(r.json.data.csrf_token).toMatch(/^[\w-]{43}$/);
    // The store keeps only a hash of the token.
    const rows = await t.service.deps.db.selectFrom('dashboard_sessions').select('token_hash').execute();
    expect(rows.map((x) => x.token_hash)).not.toContain(token);
  });

  it('marks the cookie Secure when PUBLIC_URL is https', async () => {
    const s = await startTestService({ env: { PUBLIC_URL: 'https://pay.example.com' } });
    try {
      await addUser(s.service.deps, {
        merchantId: s.merchant.merchant_id,
        email: 'sec@shop.example',
        role: 'viewer',
        password: TEST_PASSWORD,
      });
      const r = await dashFetch(s.url, '/session', { body: { email: 'sec@shop.example', password: TEST_PASSWORD } });
      expect(r.headers.get('set-cookie')).toMatch(/; Secure/);
    } finally {
      await s.close();
    }
  });

  it('answers a wrong password and an unknown address alike (401), and never echoes the password', async () => {
    const wrong = await dashFetch(t.url, '/session', {
      body: { email: 'ann@shop.example', password: 'not the password' },
    });
    const unknown = await dashFetch(t.url, '/session', {
      body: { email: 'nobody@shop.example', password: 'not the password' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.json.message).toBe(unknown.json.message);
    expect(wrong.text).not.toContain('not the password');
  });

  it('signs out: the session ends in the store, so the old cookie no longer works', async () => {
    const c = await signIn(t.url, 'ann@shop.example');
    expect((await c.call('/session')).json.data.email).toBe('ann@shop.example');
    const out = await c.call('/session', { method: 'DELETE' });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/dashboard_session=;/);
    expect((await c.call('/session')).json).toMatchObject({ success: true, data: null });
    expect((await c.call(`/merchants/${t.merchant.merchant_id}/payments`)).status).toBe(401);
  });

  it('ends a session idle for 30 minutes, and any session 12 hours after sign-in however busy', async () => {
    const c = await signIn(t.url, 'ann@shop.example');
    const payments = `/merchants/${t.merchant.merchant_id}/payments`;
    clock.advance(SESSION_IDLE_MS - 61_000);
    expect((await c.call(payments)).status).toBe(200); // seen: the idle clock starts again
    clock.advance(SESSION_IDLE_MS - 61_000);
    expect((await c.call(payments)).status).toBe(200);
    clock.advance(SESSION_IDLE_MS + 1000);
    const idle = await c.call(payments);
    expect(idle.status).toBe(401);
    expect(idle.json.message).toMatch(/session expired/);
    expect((await c.call('/session')).json.data).toBeNull();

    const busy = await signIn(t.url, 'ann@shop.example');
    for (let spent = 0; spent < SESSION_ABSOLUTE_MS; spent += 20 * 60_000) {
      expect((await busy.call(payments)).status).toBe(200);
      clock.advance(20 * 60_000);
    }
    expect((await busy.call(payments)).status).toBe(401);
  });

  it('limits failed sign-ins: 5 per account and 20 per client address in 15 minutes, with a clear message and Retry-After', async () => {
    await addUser(t.service.deps, {
      merchantId: t.merchant.merchant_id,
      email: 'bob@shop.example',
      role: 'viewer',
      password: TEST_PASSWORD,
    });
    for (let i = 0; i < 5; i++)
      expect(
        (await dashFetch(t.url, '/session', { body: { email: 'bob@shop.example', password: `guess-${i}` } })).status,
      ).toBe(401);
    const locked = await dashFetch(t.url, '/session', { body: { email: 'bob@shop.example', password: TEST_PASSWORD } });
    expect(locked.status).toBe(429);
    expect(locked.json.message).toMatch(/Too many failed sign-ins for this account\. Try again in 15 minutes/);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(800);
    clock.advance(15 * 60_000 + 1000);
    expect(
      (await dashFetch(t.url, '/session', { body: { email: 'bob@shop.example', password: TEST_PASSWORD } })).status,
    ).toBe(200);

    // Spread over many accounts, the address's own limit stops the guessing.
    let status = 0;
    for (let i = 0; i < 25 && status !== 429; i++)
      status = (
        await dashFetch(t.url, '/session', { body: { email: `u${i}@shop.example`, password: 'wrong-password' } })
      ).status;
    expect(status).toBe(429);
    const r = await dashFetch(t.url, '/session', { body: { email: 'ann@shop.example', password: TEST_PASSWORD } });
    expect(r.json.message).toMatch(/your network address/);
    clock.advance(15 * 60_000 + 1000);
  });

  it('refuses bad sign-in input with the envelope and writes nothing', async () => {
    const before = await countRows('dashboard_sessions');
    const bad = await dashFetch(t.url, '/session', { body: { email: 'not-an-address', password: '', extra: 1 } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json.errors).sort()).toEqual(['email', 'extra', 'password']);
    expect(
      (await dashFetch(t.url, '/session', { body: '{nope', headers: { 'content-type': 'application/json' } })).status,
    ).toBe(400);
    expect(
      (
        await dashFetch(t.url, '/session', {
          body: 'a=b',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).status,
    ).toBe(415);
    expect(await countRows('dashboard_sessions')).toBe(before);
  });
});

describe('CSRF, keys and cookies kept apart', () => {
  it('refuses a change without the CSRF token, with a wrong one, or from another origin (403), and writes nothing', async () => {
    const c = await signIn(t.url, 'ann@shop.example');
    const path = `/merchants/${t.merchant.merchant_id}/settings`;
    for (const r of [
      await c.call(path, { method: 'PATCH', body: { name: 'Hacked' }, csrf: null }),
      await c.call(path, { method: 'PATCH', body: { name: 'Hacked' }, csrf: 'x'.repeat(43) }),
      await c.call(path, { method: 'PATCH', body: { name: 'Hacked' }, headers: { origin: 'https://evil.example' } }),
    ]) {
      expect(r.status).toBe(403);
    }
    expect((await c.call(`/merchants/${t.merchant.merchant_id}/settings`)).json.data.name).toBe('Test shop');
    // Another session's token is no good either.
    const other = await signIn(t.url, 'ann@shop.example');
    expect((await c.call(path, { method: 'PATCH', body: { name: 'X' }, csrf: other.csrf })).status).toBe(403);
    expect((await c.call(path, { method: 'PATCH', body: { name: 'Renamed shop' } })).status).toBe(200);
    expect((await c.call(path, { method: 'PATCH', body: { name: 'Test shop' } })).status).toBe(200);
  });

  it('never takes a cookie on /api/v1 or /api/dropin/v1, and never an API key on the dashboard', async () => {
    const c = await signIn(t.url, 'ann@shop.example');
    expect((await t.api('/api/v1/balances', { key: null, headers: { cookie: c.cookie } })).status).toBe(401);
    const dropin = await fetch(`${t.url}/api/dropin/v1/currencies`, { headers: { cookie: c.cookie } });
    expect(dropin.status).toBe(401);
    const withKey = await c.call('/session', { headers: { 'x-api-key': t.merchant.secret_key } });
    expect(withKey.status).toBe(401);
    expect(withKey.json.message).toMatch(/takes no API keys/);
    const keyOnly = await dashFetch(t.url, `/merchants/${t.merchant.merchant_id}/payments`, {
      headers: { authorization: `Bearer ${t.merchant.secret_key}` },
    });
    expect(keyOnly.status).toBe(401);
  });
});

describe('roles and merchants', () => {
  it('lets a viewer read but not change (403, nothing written); another merchant reads as not found', async () => {
    const viewer = await userOf(t, t.merchant.merchant_id, 'vera@shop.example', 'viewer');
    const base = `/merchants/${t.merchant.merchant_id}`;
    expect((await viewer.call(`${base}/payments`)).status).toBe(200);
    const r = await viewer.call(`${base}/keys`, { body: { kind: 'secret' } });
    expect(r.status).toBe(403);
    expect(r.json.message).toMatch(/Viewers can read/);
    expect((await viewer.call(`${base}/keys`)).json.data).toHaveLength(2);

    const other = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Other', mode: 'test' });
    expect((await viewer.call(`/merchants/${other.merchant_id}/payments`)).status).toBe(404);
    expect((await viewer.call(`/merchants/${other.merchant_id}/settings`)).json.message).toBe('Merchant not found');
    const created = await t.api('/api/v1/payments', { body: { amount: 10, currency: 'btc', email: 'c@x.example' } });
    const otherOwner = await userOf(t, other.merchant_id, 'olga@other.example');
    expect(
      (await otherOwner.call(`/merchants/${other.merchant_id}/payments/${created.json.data.payment.payment_id}`))
        .status,
    ).toBe(404);
  });

  it('one user, several merchants: user create on an existing address adds a membership with its own role', async () => {
    const live = await createMerchant(t.service.deps.db, t.service.deps.clock, {
      name: 'Test shop (live)',
      mode: 'live',
    });
    const r = await addUser(t.service.deps, {
      merchantId: live.merchant_id,
      email: 'ANN@shop.example',
      role: 'viewer',
    });
    expect(r).toMatchObject({ created: false, passwordToken: null });
    const c = await signIn(t.url, 'ann@shop.example');
    const me = (await c.call('/session')).json.data;
    expect(me.merchants.map((m: { mode: string; role: string }) => `${m.mode}:${m.role}`)).toEqual([
      'test:owner',
      'live:viewer',
    ]);
    expect(
      (await c.call(`/merchants/${live.merchant_id}/settings`, { method: 'PATCH', body: { name: 'x' } })).status,
    ).toBe(403);
  });
});

describe('one-time password links', () => {
  it('sets a password once through the link; a used, expired or mistyped link is refused; a short password spends nothing', async () => {
    const added = await addUser(t.service.deps, {
      merchantId: t.merchant.merchant_id,
      email: 'carl@shop.example',
      role: 'owner',
    });
    const token = added.passwordToken ?? '';
    expect(token).toMatch(/^pw_/);
    expect(
      (await dashFetch(t.url, '/session', { body: { email: 'carl@shop.example', password: 'anything at all' } }))
        .status,
    ).toBe(401);
    const short = await dashFetch(t.url, '/password', { body: { token, password: 'short' } });
    expect(short.status).toBe(422);
    expect(short.json.errors.password[0]).toMatch(/at least 10/);
    expect((await dashFetch(t.url, '/password', { body: { token, password: 'a long new password' } })).status).toBe(
      200,
    );
    expect((await dashFetch(t.url, '/password', { body: { token, password: 'another new password' } })).status).toBe(
      404,
    );
    await signIn(t.url, 'carl@shop.example', 'a long new password');
    expect(
      (await dashFetch(t.url, '/password', { body: { token: 'pw_madeup', password: 'a long new password' } })).status,
    ).toBe(404);

    const later = await addUser(t.service.deps, {
      merchantId: t.merchant.merchant_id,
      email: 'dora@shop.example',
      role: 'owner',
    });
    clock.advance(24 * 60 * 60 * 1000 + 1000);
    const expired = await dashFetch(t.url, '/password', {
      body: { token: later.passwordToken, password: 'a long new password' },
    });
    expect(expired.status).toBe(404);
    expect(expired.json.message).toMatch(/expired/);
  });
});
