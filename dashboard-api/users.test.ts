import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchant } from '../core/merchants/merchants.js';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { type DashClient, dashFetch, signIn, TEST_PASSWORD, userOf } from './testing/client.js';

/* Owners manage users from the dashboard; everyone changes their own password (issue 23, item 6), over HTTP. */

let t: TestService;
let owner: DashClient;
let base: string;

beforeAll(async () => {
  t = await startTestService();
  owner = await userOf(t, t.merchant.merchant_id, 'owner@shop.example');
  base = `/merchants/${t.merchant.merchant_id}`;
});
afterAll(async () => {
  await t.close();
});

const count = async (table: 'dashboard_users' | 'dashboard_memberships' | 'audit_log' | 'dashboard_password_tokens') =>
  Number(
    (
      await t.service.deps.db
        .selectFrom(table)
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const audit = async (action: string) =>
  (await owner.call(`${base}/audit?action=${action}`)).json.data.entries as Array<Record<string, unknown>>;

describe('users from the dashboard', () => {
  it('invites by a one-time link, which sets the password once; the invitee signs in with the given role', async () => {
    const r = await owner.call(`${base}/users`, { body: { email: 'New@Shop.example', role: 'viewer' } });
    expect(r.status).toBe(201);
    const url: string = r.json.data.invite_url;
    expect(url).toMatch(new RegExp(`^${t.url}/dashboard/set-password#token=pw_[\\w-]+$`));
    const token = url.split('#token=')[1];
    expect(JSON.stringify(await audit('user.invite'))).not.toContain(token);
    expect((await audit('user.invite'))[0]).toMatchObject({
      actor: 'owner@shop.example',
      details: { email: 'new@shop.example', role: 'viewer', link_issued: true },
    });
    const listed = (await owner.call(`${base}/users`)).json.data;
    expect(listed).toContainEqual(
      expect.objectContaining({ email: 'new@shop.example', role: 'viewer', password_set: false }),
    );
    expect(JSON.stringify(listed)).not.toMatch(/scrypt|pw_/);
    expect((await dashFetch(t.url, '/password', { body: { token, password: 'invited password' } })).status).toBe(200);
    expect((await dashFetch(t.url, '/password', { body: { token, password: 'second password' } })).status).toBe(404);
    const invitee = await signIn(t.url, 'new@shop.example', 'invited password');
    expect((await invitee.call(`${base}/keys`, { body: { kind: 'secret' } })).status).toBe(403);
    // Someone who already has a password just gains the role: no link.
    const other = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Other', mode: 'test' });
    const otherOwner = await userOf(t, other.merchant_id, 'olga@other.example');
    const again = await owner.call(`${base}/users`, { body: { email: 'olga@other.example', role: 'viewer' } });
    expect(again.json.data.invite_url).toBeNull();
    expect((await otherOwner.call(`${base}/payments`)).status).toBe(200);
  });

  it('changes roles and removes members; the only owner stays; the change applies to the next request', async () => {
    const users = (await owner.call(`${base}/users`)).json.data as Array<{ user_id: string; email: string }>;
    const invitee = users.find((u) => u.email === 'new@shop.example')?.user_id as string;
    const me = users.find((u) => u.email === 'owner@shop.example')?.user_id as string;
    const c = await signIn(t.url, 'new@shop.example', 'invited password');
    expect((await owner.call(`${base}/users/${invitee}`, { method: 'PATCH', body: { role: 'owner' } })).status).toBe(
      200,
    );
    expect((await c.call(`${base}/settings`, { method: 'PATCH', body: { name: 'Test shop' } })).status).toBe(200);
    expect((await audit('user.role'))[0]).toMatchObject({ target: invitee, details: { from: 'viewer', to: 'owner' } });

    expect((await owner.call(`${base}/users/${invitee}`, { method: 'DELETE' })).status).toBe(200);
    expect((await c.call(`${base}/payments`)).status).toBe(404);
    expect((await audit('user.remove'))[0]).toMatchObject({ target: invitee, details: { email: 'new@shop.example' } });

    const before = await count('audit_log');
    const demote = await owner.call(`${base}/users/${me}`, { method: 'PATCH', body: { role: 'viewer' } });
    expect(demote.status).toBe(409);
    expect((await owner.call(`${base}/users/${me}`, { method: 'DELETE' })).status).toBe(409);
    expect(await count('audit_log')).toBe(before);
    expect((await owner.call(`${base}/users`)).json.data).toContainEqual(
      expect.objectContaining({ email: 'owner@shop.example', role: 'owner', you: true }),
    );
  });

  it('bad input answers the envelope and writes nothing; viewers 403; another merchant 404', async () => {
    const viewer = await userOf(t, t.merchant.merchant_id, 'vic@shop.example', 'viewer');
    const vicId = ((await owner.call(`${base}/users`)).json.data as Array<{ user_id: string; email: string }>).find(
      (u) => u.email === 'vic@shop.example',
    )?.user_id as string;
    const counts = async () =>
      Promise.all([
        count('dashboard_users'),
        count('dashboard_memberships'),
        count('audit_log'),
        count('dashboard_password_tokens'),
      ]);
    const before = await counts();
    const bad = await owner.call(`${base}/users`, { body: { email: 'not-an-address', role: 'admin', x: 1 } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json.errors).sort()).toEqual(['email', 'role', 'x']);
    expect(
      (await owner.call(`${base}/users`, { body: '{', headers: { 'content-type': 'application/json' } })).status,
    ).toBe(400);
    expect((await owner.call(`${base}/users/${vicId}`, { method: 'PATCH', body: { role: 'root' } })).status).toBe(422);
    expect((await owner.call(`${base}/users`, { body: { email: 'vic@shop.example', role: 'owner' } })).status).toBe(
      409,
    );
    expect((await viewer.call(`${base}/users`, { body: { email: 'x@shop.example', role: 'viewer' } })).status).toBe(
      403,
    );
    expect((await viewer.call(`${base}/users/${vicId}`, { method: 'PATCH', body: { role: 'owner' } })).status).toBe(
      403,
    );
    expect((await viewer.call(`${base}/users/${vicId}`, { method: 'DELETE' })).status).toBe(403);
    expect((await owner.call(`${base}/users/usr_nosuchuser00000`, { method: 'DELETE' })).status).toBe(404);
    const other = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Other 2', mode: 'test' });
    const stranger = await userOf(t, other.merchant_id, 'stranger@other.example');
    const afterStranger = await counts();
    expect((await stranger.call(`/merchants/${other.merchant_id}/users/${vicId}`, { method: 'DELETE' })).status).toBe(
      404,
    );
    expect(
      (
        await stranger.call(`/merchants/${other.merchant_id}/users/${vicId}`, {
          method: 'PATCH',
          body: { role: 'owner' },
        })
      ).status,
    ).toBe(404);
    expect((await stranger.call(`${base}/users`)).status).toBe(404);
    expect(await counts()).toEqual(afterStranger);
    expect(afterStranger[2]).toBeGreaterThan(before[2]); // only the stranger's own sign-in was recorded meanwhile
    expect(afterStranger.slice(0, 2)).toEqual([before[0] + 1, before[1] + 1]);
    expect((await viewer.call(`${base}/users`)).status).toBe(200);
  });

  it('changes the own password given the current one: other sessions end, this one stays; wrong or short refused', async () => {
    const here = await userOf(t, t.merchant.merchant_id, 'pat@shop.example', 'viewer');
    const elsewhere = await signIn(t.url, 'pat@shop.example');
    const before = await count('audit_log');
    const wrong = await here.call('/account/password', {
      body: { current_password: 'not it at all', new_password: 'a new long password' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.json.errors.current_password).toBeDefined();
    const short = await here.call('/account/password', {
      body: { current_password: TEST_PASSWORD, new_password: 'short' },
    });
    expect(short.status).toBe(422);
    expect(short.json.errors.new_password[0]).toMatch(/at least 10/);
    expect((await here.call('/account/password', { body: { current_password: TEST_PASSWORD } })).status).toBe(422);
    expect(
      (
        await here.call('/account/password', {
          body: { current_password: TEST_PASSWORD, new_password: 'x'.repeat(12) },
          csrf: null,
        })
      ).status,
    ).toBe(403);
    expect(await count('audit_log')).toBe(before);
    expect(
      (await dashFetch(t.url, '/account/password', { body: { current_password: 'a', new_password: 'b' } })).status,
    ).toBe(401);

    const r = await here.call('/account/password', {
      body: { current_password: TEST_PASSWORD, new_password: 'a new long password' },
    });
    expect(r.status).toBe(200);
    expect((await here.call('/session')).json.data.email).toBe('pat@shop.example');
    expect((await elsewhere.call('/session')).json.data).toBeNull();
    expect(
      (await dashFetch(t.url, '/session', { body: { email: 'pat@shop.example', password: TEST_PASSWORD } })).status,
    ).toBe(401);
    await signIn(t.url, 'pat@shop.example', 'a new long password');
    expect((await audit('password.change'))[0]).toMatchObject({
      actor: 'pat@shop.example',
      client_address: '127.0.0.1',
    });
  });
});
