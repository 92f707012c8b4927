import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../core/clock.js';
import { createMerchant } from '../core/merchants/merchants.js';
import { addUser } from '../core/users/accounts.js';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { type DashClient, dashFetch, signIn, TEST_PASSWORD, userOf } from './testing/client.js';

/*
 * TOTP two-factor sign-in (issue 23, item 6) over HTTP on the real app: codes are computed here from the secret the
 * service showed, as an authenticator app would; the clock is the service's, moved by the test.
 */

let t: TestService;
const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 0));
const STEP = 30_000;

beforeAll(async () => {
  t = await startTestService({ clock });
});
afterAll(async () => {
  await t.close();
});

const codeOf = (secret: string, at = clock.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at });

const count = async (
  table:
    | 'dashboard_two_factor'
    | 'dashboard_recovery_codes'
    | 'audit_log'
    | 'dashboard_sessions'
    | 'merchant_two_factor_requirements',
) =>
  Number(
    (
      await t.service.deps.db
        .selectFrom(table)
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const passwordStep = (email: string, password = TEST_PASSWORD) =>
  dashFetch(t.url, '/session', { body: { email, password } });
const codeStep = (pending: string, code: string) =>
  dashFetch(t.url, '/session/two-factor', { body: { pending_token: pending, code } });

/** Sets up two-factor for a signed-in user; answers the secret and the recovery codes. */
async function enrol(u: DashClient): Promise<{ secret: string; recovery: string[] }> {
  const setup = await u.call('/account/two-factor/setup', { method: 'POST' });
  expect(setup.status).toBe(200);
  const secret: string = setup.json.data.secret;
  const on = await u.call('/account/two-factor', { body: { code: codeOf(secret) } });
  expect(on.status).toBe(201);
  return { secret, recovery: on.json.data.recovery_codes };
}

/** A fresh user per test, so the sign-in limits of one test never reach another. */
let n = 0;
async function freshUser(role: 'owner' | 'viewer' = 'owner', merchantId = t.merchant.merchant_id) {
  n += 1;
  const email = `u${n}@shop.example`;
  const u = await userOf(t, merchantId, email, role);
  return { email, u };
}

describe('enrolment', () => {
  it('shows a secret as our QR and as text; only a right code turns it on; ten recovery codes, stored hashed', async () => {
    const { email, u } = await freshUser();
    const setup = await u.call('/account/two-factor/setup', { method: 'POST' });
    expect(setup.status).toBe(200);
    const { secret, otpauth_uri: uri, qr_svg: qr } = setup.json.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toMatch(new RegExp(`^otpauth://totp/.*${encodeURIComponent(email)}.*secret=${secret}`));
    expect(qr).toMatch(/^data:image\/svg\+xml,/);
    // Not on until confirmed: the password alone still signs in.
    expect((await u.call('/account/two-factor')).json.data).toEqual({ enabled: false, recovery_codes_left: 0 });
    expect((await passwordStep(email)).json.data.csrf_token).toBeTypeOf('string');

    const auditBefore = await count('audit_log');
    const wrong = String((Number(codeOf(secret)) + 1) % 1_000_000).padStart(6, '0');
    const bad = await u.call('/account/two-factor', { body: { code: wrong } });
    expect(bad.status).toBe(422);
    expect(bad.json.errors.code).toBeDefined();
    const malformed = await u.call('/account/two-factor', { body: { code: 'abc' } });
    expect(malformed.status).toBe(422);
    expect((await u.call('/account/two-factor', { body: '{"code":' })).status).toBe(400);
    expect((await u.call('/account/two-factor', { body: { code: codeOf(secret), extra: 1 } })).status).toBe(422);
    expect(await count('audit_log')).toBe(auditBefore);
    expect((await u.call('/account/two-factor')).json.data.enabled).toBe(false);

    const on = await u.call('/account/two-factor', { body: { code: codeOf(secret) } });
    expect(on.status).toBe(201);
    const codes: string[] = on.json.data.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect((await u.call('/account/two-factor')).json.data).toEqual({ enabled: true, recovery_codes_left: 10 });
    // The store holds no recovery code in the clear.
    const stored = await t.service.deps.db.selectFrom('dashboard_recovery_codes').select('code_hash').execute();
    const hashes = JSON.stringify(stored);
    for (const c of codes) {
      expect(hashes).not.toContain(c);
      expect(hashes).not.toContain(c.replace('-', ''));
    }
    // The secret is never shown again: a second setup is refused while it is on.
    expect((await u.call('/account/two-factor/setup', { method: 'POST' })).status).toBe(409);
    const entries = (await u.call(`/merchants/${t.merchant.merchant_id}/audit?action=two_factor`)).json.data.entries;
    expect(entries[0]).toMatchObject({ action: 'two_factor.enable', actor: email });
    expect(JSON.stringify(entries)).not.toContain(secret);
    // Without a session, and without the CSRF token, nothing.
    expect((await dashFetch(t.url, '/account/two-factor/setup', { method: 'POST' })).status).toBe(401);
    expect((await u.call('/account/two-factor', { body: { code: codeOf(secret) }, csrf: null })).status).toBe(403);
  });
});

describe('sign-in with two-factor', () => {
  it('the password alone gives no session; a code completes it; wrong and replayed codes are refused', async () => {
    const { email, u } = await freshUser();
    const { secret } = await enrol(u);
    clock.advance(STEP);

    const sessions = await count('dashboard_sessions');
    const first = await passwordStep(email);
    expect(first.status).toBe(200);
    expect(first.headers.get('set-cookie')).toBeNull();
    expect(first.json.data.csrf_token).toBeUndefined();
    const pending: string = first.json.data.two_factor.pending_token;
    expect(pending).toMatch(/^tf_/);
    expect(await count('dashboard_sessions')).toBe(sessions);
    // The pending token is no session.
    const asCookie = await dashFetch(t.url, '/session', { headers: { cookie: `dashboard_session=${pending}` } });
    expect(asCookie.json.data).toBeNull();

    const wrong = String((Number(codeOf(secret)) + 1) % 1_000_000).padStart(6, '0');
    const refused = await codeStep(pending, wrong);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('set-cookie')).toBeNull();
    expect((await codeStep(pending, '')).status).toBe(422);
    expect((await dashFetch(t.url, '/session/two-factor', { body: '{"pending_token"' })).status).toBe(400);
    expect(await count('dashboard_sessions')).toBe(sessions);

    const code = codeOf(secret);
    const good = await codeStep(pending, code);
    expect(good.status).toBe(200);
    expect(good.headers.get('set-cookie')).toMatch(/^dashboard_session=ds_/);
    expect(good.json.data).toMatchObject({ email, two_factor_enabled: true });
    const cookie = (good.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect((await dashFetch(t.url, '/session', { headers: { cookie } })).json.data.email).toBe(email);
    // The pending sign-in is used up.
    expect((await codeStep(pending, codeOf(secret))).status).toBe(401);

    // The same code, in the same time step, on a new pending sign-in: a replay, refused.
    const again = (await passwordStep(email)).json.data.two_factor.pending_token;
    expect((await codeStep(again, code)).status).toBe(401);
    // ...and a code of an earlier step, still inside the drift window, is a replay too.
    clock.advance(STEP);
    expect((await codeStep(again, codeOf(secret, clock.now() - STEP))).status).toBe(401);
    // The next step's code works.
    expect((await codeStep(again, codeOf(secret))).status).toBe(200);
  });

  it('a pending sign-in expires after five minutes', async () => {
    const { email, u } = await freshUser();
    const { secret } = await enrol(u);
    const pending = (await passwordStep(email)).json.data.two_factor.pending_token;
    clock.advance(5 * 60_000 + 1);
    const late = await codeStep(pending, codeOf(secret));
    expect(late.status).toBe(401);
    expect(late.json.message).toMatch(/sign in again/);
  });

  it('recovery codes sign in once each, and each use is audited', async () => {
    const { email, u } = await freshUser();
    const { recovery } = await enrol(u);
    const [one, two] = recovery as [string, string];
    const p1 = (await passwordStep(email)).json.data.two_factor.pending_token;
    expect((await codeStep(p1, one)).status).toBe(200);
    const p2 = (await passwordStep(email)).json.data.two_factor.pending_token;
    expect((await codeStep(p2, one)).status).toBe(401);
    // Typed without the dash and in capitals, the next one works.
    expect((await codeStep(p2, two.replace('-', '').toUpperCase())).status).toBe(200);
    expect((await u.call('/account/two-factor')).json.data.recovery_codes_left).toBe(8);
    const entries = (await u.call(`/merchants/${t.merchant.merchant_id}/audit?action=two_factor.recovery_code`)).json
      .data.entries;
    expect(entries).toHaveLength(2);
    // Both uses share one instant of the test's clock, so their order in the log is the ids' order: compare as a set.
    expect(entries.map((e: { actor: string }) => e.actor)).toEqual([email, email]);
    expect(
      entries.map((e: { details: { recovery_codes_left: number } }) => e.details.recovery_codes_left).sort(),
    ).toEqual([8, 9]);
    expect(JSON.stringify(entries)).not.toContain(one);
  });

  it('code guesses count against the sign-in limits: past five tries, 429 even with the right code', async () => {
    const { email, u } = await freshUser();
    const { secret } = await enrol(u);
    clock.advance(STEP);
    const pending = (await passwordStep(email)).json.data.two_factor.pending_token;
    const wrong = String((Number(codeOf(secret)) + 7) % 1_000_000).padStart(6, '0');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await codeStep(pending, wrong)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const blocked = await codeStep(pending, codeOf(secret));
    expect(blocked.status).toBe(429);
    // A new password step does not buy new guesses.
    expect((await passwordStep(email)).status).toBe(429);
    clock.advance(15 * 60_000 + 1000);
    const p2 = (await passwordStep(email)).json.data.two_factor.pending_token;
    expect((await codeStep(p2, codeOf(secret))).status).toBe(200);
  });
});

describe('turning it off', () => {
  it('needs a current code or the password; the secret and codes are deleted; audited', async () => {
    const { email, u } = await freshUser();
    const { secret } = await enrol(u);
    clock.advance(STEP);
    const before = await count('audit_log');
    expect((await u.call('/account/two-factor/disable', { body: {} })).status).toBe(422);
    expect((await u.call('/account/two-factor/disable', { body: { code: '1', password: 'x' } })).status).toBe(422);
    const bad = await u.call('/account/two-factor/disable', { body: { password: 'not my password' } });
    expect(bad.status).toBe(422);
    expect(bad.json.errors.password).toBeDefined();
    expect(await count('audit_log')).toBe(before);
    expect((await u.call('/account/two-factor')).json.data.enabled).toBe(true);
    const off = await u.call('/account/two-factor/disable', { body: { code: codeOf(secret) } });
    expect(off.status).toBe(200);
    expect((await u.call('/account/two-factor')).json.data).toEqual({ enabled: false, recovery_codes_left: 0 });
    const entries = (await u.call(`/merchants/${t.merchant.merchant_id}/audit?action=two_factor.disable`)).json.data
      .entries;
    expect(entries[0]).toMatchObject({ actor: email });
    // The password alone signs in again.
    expect((await passwordStep(email)).json.data.csrf_token).toBeTypeOf('string');

    const second = await enrol(u);
    expect((await u.call('/account/two-factor/disable', { body: { password: TEST_PASSWORD } })).status).toBe(200);
    expect(
      await t.service.deps.db
        .selectFrom('dashboard_two_factor')
        .where('secret', '=', second.secret)
        .selectAll()
        .execute(),
    ).toHaveLength(0);
  });
});

describe('an owner requires two-factor of the merchant', () => {
  it('members without it get 403 on its pages until they turn it on; viewers cannot change it; another merchant 404', async () => {
    const m = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Strict', mode: 'test' });
    const base = `/merchants/${m.merchant_id}`;
    const { u: owner } = await freshUser('owner', m.merchant_id);
    const { u: viewer } = await freshUser('viewer', m.merchant_id);
    const { u: outsider } = await freshUser('owner');

    // The owner must have it on first, or they would lock themselves out.
    const early = await owner.call(`${base}/two-factor-requirement`, { method: 'PUT', body: { required: true } });
    expect(early.status).toBe(409);
    expect(await count('merchant_two_factor_requirements')).toBe(0);
    await enrol(owner);
    const before = await count('audit_log');
    expect(
      (await owner.call(`${base}/two-factor-requirement`, { method: 'PUT', body: { required: 'yes' } })).status,
    ).toBe(422);
    expect(
      (await viewer.call(`${base}/two-factor-requirement`, { method: 'PUT', body: { required: true } })).status,
    ).toBe(403);
    expect(
      (await outsider.call(`${base}/two-factor-requirement`, { method: 'PUT', body: { required: true } })).status,
    ).toBe(404);
    expect(await count('audit_log')).toBe(before);
    expect(await count('merchant_two_factor_requirements')).toBe(0);

    const on = await owner.call(`${base}/two-factor-requirement`, { method: 'PUT', body: { required: true } });
    expect(on.status).toBe(200);
    const entries = (await owner.call(`${base}/audit?action=two_factor.require`)).json.data.entries;
    expect(entries[0]).toMatchObject({ details: { required: true } });

    const refused = await viewer.call(`${base}/payments`);
    expect(refused.status).toBe(403);
    expect(refused.json.message).toMatch(/requires two-factor/);
    expect((await viewer.call('/session')).json.data.merchants[0]).toMatchObject({
      merchant_id: m.merchant_id,
      two_factor_required: true,
    });
    // Other merchants are unaffected.
    expect((await outsider.call(`/merchants/${t.merchant.merchant_id}/payments`)).status).toBe(200);
    // Enrolment itself stays open to the member (an account route), and then the pages open.
    await enrol(viewer);
    expect((await viewer.call(`${base}/payments`)).status).toBe(200);

    expect(
      (await owner.call(`${base}/two-factor-requirement`, { method: 'PUT', body: { required: false } })).status,
    ).toBe(200);
    expect(await count('merchant_two_factor_requirements')).toBe(0);
  });
});

describe('a user without two-factor', () => {
  it('signs in with the password alone, as before', async () => {
    await addUser(t.service.deps, {
      merchantId: t.merchant.merchant_id,
      email: 'plain@shop.example',
      role: 'viewer',
      password: TEST_PASSWORD,
    });
    const s = await signIn(t.url, 'plain@shop.example');
    expect((await s.call('/session')).json.data).toMatchObject({
      email: 'plain@shop.example',
      two_factor_enabled: false,
    });
  });
});
