import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { signIn, userOf } from './testing/client.js';

/*
 * Another store from the dashboard (issue 27, item 7): until now only `admin merchant create` made one. The owner who
 * makes it owns it, its keys are shown once and work at once, and it is audited in its own log.
 */

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t.close();
});

describe('POST /merchants', () => {
  it('makes a store the owner owns, with keys shown once that work on the merchant API, audited', async () => {
    const owner = await userOf(t, t.merchant.merchant_id, 'owner@stores.example');
    const r = await owner.call('/merchants', { body: { name: 'Second shop', mode: 'test' } });
    expect(r.status).toBe(201);
    const m = r.json.data;
    expect(m).toMatchObject({ name: 'Second shop', mode: 'test' });
    expect(m.secret_key).toMatch(/^sk_test_/);
    expect(m.public_key).toMatch(/^dk_test_/);
    expect((await t.api('/api/v1/balances', { key: m.secret_key })).status).toBe(200);
    // Stored hashed: the key is nowhere in the store.
    const keys = await t.service.deps.db
      .selectFrom('api_keys')
      .selectAll()
      .where('merchant_id', '=', m.merchant_id)
      .execute();
    expect(JSON.stringify(keys)).not.toContain(m.secret_key);

    const session = (await owner.call('/session')).json.data;
    expect(session.merchants).toContainEqual(expect.objectContaining({ merchant_id: m.merchant_id, role: 'owner' }));
    expect((await owner.call(`/merchants/${m.merchant_id}/settings`)).json.data.name).toBe('Second shop');
    const audit = await t.service.deps.db
      .selectFrom('audit_log')
      .selectAll()
      .where('merchant_id', '=', m.merchant_id)
      .execute();
    expect(audit.map((a) => [a.action, a.target, a.actor_email])).toEqual([
      ['merchant.create', m.merchant_id, 'owner@stores.example'],
    ]);
    expect(JSON.stringify(audit)).not.toContain(m.secret_key);
  });

  it('refuses a viewer (403), bad input (422, nothing made), and no session (401)', async () => {
    const count = async () =>
      Number(
        (
          await t.service.deps.db
            .selectFrom('merchants')
            .select((e) => e.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const viewer = await userOf(t, t.merchant.merchant_id, 'viewer@stores.example', 'viewer');
    expect((await viewer.call('/merchants', { body: { name: 'Mine', mode: 'test' } })).status).toBe(403);
    const owner = await signIn(t.url, 'owner@stores.example');
    const bad = await owner.call('/merchants', { body: { name: '', mode: 'demo' } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json.errors).sort()).toEqual(['mode', 'name']);
    expect((await owner.call('/merchants', { body: { name: 'x', mode: 'test' }, csrf: null })).status).toBe(403);
    const anonymous = await fetch(`${t.url}/dashboard/api/merchants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x', mode: 'test' }),
    });
    expect(anonymous.status).toBe(401);
    expect(await count()).toBe(before);
  });
});
