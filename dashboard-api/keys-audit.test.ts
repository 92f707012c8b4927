import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../core/clock.js';
import { createMerchant } from '../core/merchants/merchants.js';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { type DashClient, signIn, userOf } from './testing/client.js';

/*
 * API key labels and rotation with a grace period (issue 23, item 8), and the audit log (item 7), over HTTP on the
 * real app and store.
 */

let t: TestService;
let owner: DashClient;
let viewer: DashClient;
let base: string;
const clock = new ManualClock(Date.now());
const HOUR = 60 * 60 * 1000;

beforeAll(async () => {
  t = await startTestService({ clock });
  owner = await userOf(t, t.merchant.merchant_id, 'owner@shop.example');
  viewer = await userOf(t, t.merchant.merchant_id, 'viewer@shop.example', 'viewer');
  base = `/merchants/${t.merchant.merchant_id}`;
});
afterAll(async () => {
  await t.close();
});

const count = async (table: 'api_keys' | 'audit_log') =>
  Number(
    (
      await t.service.deps.db
        .selectFrom(table)
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
/** Sessions end after 30 idle minutes and 12 hours: after moving the clock that far, sign in again. */
async function signInAgain() {
  owner = await signIn(t.url, 'owner@shop.example');
  viewer = await signIn(t.url, 'viewer@shop.example');
}
const balances = (key: string) => t.api('/api/v1/balances', { key });
const keyRow = async (id: string) =>
  ((await owner.call(`${base}/keys`)).json.data as Array<Record<string, unknown>>).find((k) => k.id === id);

describe('API keys: labels, rotation with a grace period, last use', () => {
  it('rotates with a 24 h grace by default: the merchant API takes the old key until its end and refuses it after', async () => {
    const created = await owner.call(`${base}/keys`, { body: { kind: 'secret', label: 'shop server' } });
    expect(created.status).toBe(201);
    expect(created.json.data.label).toBe('shop server');
    const oldKey: string = created.json.data.key;
    expect((await balances(oldKey)).status).toBe(200);

    const rotated = await owner.call(`${base}/keys/${created.json.data.id}/rotate`, { body: {} });
    expect(rotated.status).toBe(200);
    const end = Date.parse(rotated.json.data.replaced_valid_until);
    expect(end).toBe(clock.now() + 24 * HOUR);
    const newKey: string = rotated.json.data.key;
    // Both work during the grace period.
    expect((await balances(oldKey)).status).toBe(200);
    expect((await balances(newKey)).status).toBe(200);
    const old = await keyRow(created.json.data.id);
    expect(old).toMatchObject({ active: true, expires_at: new Date(end).toISOString(), label: 'shop server' });
    expect(await keyRow(rotated.json.data.id)).toMatchObject({ active: true, expires_at: null, label: 'shop server' });

    clock.advance(24 * HOUR - 1000);
    expect((await balances(oldKey)).status).toBe(200);
    clock.advance(1000);
    expect((await balances(oldKey)).status).toBe(401);
    expect((await balances(newKey)).status).toBe(200);
    await signInAgain();
    expect(await keyRow(created.json.data.id)).toMatchObject({ active: false });
    // A key in its grace period or past it is not rotated again.
    expect((await owner.call(`${base}/keys/${created.json.data.id}/rotate`, { body: {} })).status).toBe(404);

    // Last use is recorded for the new key.
    await t.service.deps.keyUsage.flush();
    expect((await keyRow(rotated.json.data.id))?.last_used_at).not.toBeNull();
  });

  it('takes a chosen grace (0 stops the old key at once; 2 h ends at 2 h)', async () => {
    const a = await owner.call(`${base}/keys`, { body: { kind: 'secret' } });
    const now0 = await owner.call(`${base}/keys/${a.json.data.id}/rotate`, { body: { grace_hours: 0 } });
    expect((await balances(a.json.data.key)).status).toBe(401);
    const b = now0.json.data;
    const two = await owner.call(`${base}/keys/${b.id}/rotate`, { body: { grace_hours: 2 } });
    expect(Date.parse(two.json.data.replaced_valid_until)).toBe(clock.now() + 2 * HOUR);
    clock.advance(2 * HOUR - 1);
    expect((await balances(b.key)).status).toBe(200);
    clock.advance(1);
    expect((await balances(b.key)).status).toBe(401);
    await signInAgain();
  });

  it('renames a key; bad input answers the envelope and writes nothing; viewers 403; another merchant 404', async () => {
    const k = await owner.call(`${base}/keys`, { body: { kind: 'public', label: 'widget' } });
    const path = `${base}/keys/${k.json.data.id}`;
    expect((await owner.call(path, { method: 'PATCH', body: { label: 'checkout widget' } })).json.data.label).toBe(
      'checkout widget',
    );
    const keys = await count('api_keys');
    const audits = await count('audit_log');
    for (const [p, body, field] of [
      [`${path}/rotate`, { grace_hours: -1 }, 'grace_hours'],
      [`${path}/rotate`, { grace_hours: 1.5 }, 'grace_hours'],
      [`${path}/rotate`, { grace_hours: 1000 }, 'grace_hours'],
      [`${path}/rotate`, { grace_hours: '24' }, 'grace_hours'],
      [`${path}/rotate`, { grace: 1 }, 'grace'],
      [`${base}/keys`, { kind: 'secret', label: 'x'.repeat(61) }, 'label'],
      [`${base}/keys`, { kind: 'secret', label: 'two\nlines' }, 'label'],
    ] as const) {
      const r = await owner.call(p, { body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.json.success).toBe(false);
      expect(Object.keys(r.json.errors)).toContain(field);
    }
    expect((await owner.call(path, { method: 'PATCH', body: { label: 7 } })).status).toBe(422);
    expect(
      (await owner.call(`${path}/rotate`, { body: '{bad', headers: { 'content-type': 'application/json' } })).status,
    ).toBe(400);
    expect((await viewer.call(`${path}/rotate`, { body: {} })).status).toBe(403);
    expect((await viewer.call(path, { method: 'PATCH', body: { label: 'mine' } })).status).toBe(403);
    expect(await count('api_keys')).toBe(keys);
    expect(await count('audit_log')).toBe(audits);
    expect((await keyRow(k.json.data.id))?.label).toBe('checkout widget');

    const other = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Other', mode: 'test' });
    const otherOwner = await userOf(t, other.merchant_id, 'other@shop.example');
    const keysWithOther = await count('api_keys');
    expect(
      (await otherOwner.call(`/merchants/${other.merchant_id}/keys/${k.json.data.id}/rotate`, { body: {} })).status,
    ).toBe(404);
    expect(
      (
        await otherOwner.call(`/merchants/${other.merchant_id}/keys/${k.json.data.id}`, {
          method: 'PATCH',
          body: { label: 'x' },
        })
      ).status,
    ).toBe(404);
    expect(
      (await owner.call(`/merchants/${other.merchant_id}/keys/${k.json.data.id}/rotate`, { body: {} })).status,
    ).toBe(404);
    expect(await count('api_keys')).toBe(keysWithOther);
  });
});

describe('audit log', () => {
  it('records who did what, when and from where, never the secrets; filters by action, actor and time', async () => {
    // A second apart: entries of one millisecond have no defined order.
    const tick = () => clock.advance(1000);
    tick();
    const key = await owner.call(`${base}/keys`, { body: { kind: 'secret', label: 'audited' } });
    tick();
    const secret = await owner.call(`${base}/webhook-endpoint/rotate-secret`, { body: {} });
    tick();
    await owner.call(`${base}/webhook-endpoint`, { method: 'PUT', body: { url: 'https://hooks.example/x' } });
    tick();
    await owner.call(`${base}/settings`, { method: 'PATCH', body: { name: 'Audited shop' } });
    tick();
    await owner.call(`${base}/keys/${key.json.data.id}/deactivate`, { body: {} });

    const all = await viewer.call(`${base}/audit?limit=200`);
    expect(all.status).toBe(200);
    const entries = all.json.data.entries as Array<Record<string, unknown>>;
    const text = all.text;
    expect(text).not.toContain(key.json.data.key);
    expect(text).not.toContain(secret.json.data.webhook_secret);
    const dump = JSON.stringify(await t.service.deps.db.selectFrom('audit_log').selectAll().execute());
    expect(dump).not.toContain(key.json.data.key);
    expect(dump).not.toContain(secret.json.data.webhook_secret);
    expect(dump).not.toMatch(/whsec_|pw_|ds_|sk_test_\w{5}/);

    expect(entries.slice(0, 5).map((e) => e.action)).toEqual([
      'key.deactivate',
      'settings.update',
      'webhook.url',
      'webhook.secret',
      'key.create',
    ]);
    expect(entries[0]).toMatchObject({
      actor: 'owner@shop.example',
      target: key.json.data.id,
      client_address: '127.0.0.1',
    });
    expect(entries[2]?.details).toEqual({ url: 'https://hooks.example/x' });
    expect(entries[4]?.details).toMatchObject({ kind: 'secret', label: 'audited' });
    expect(entries.some((e) => e.action === 'sign_in' && e.actor === 'viewer@shop.example')).toBe(true);
    expect(entries.some((e) => e.action === 'key.rotate')).toBe(true);

    const keysOnly = (await owner.call(`${base}/audit?action=key`)).json.data.entries as Array<{ action: string }>;
    expect(keysOnly.length).toBeGreaterThan(0);
    expect(keysOnly.every((e) => e.action.startsWith('key.'))).toBe(true);
    const byViewer = (await owner.call(`${base}/audit?actor=viewer@shop.example`)).json.data.entries as Array<{
      actor: string;
    }>;
    expect(byViewer.length).toBeGreaterThan(0);
    expect(byViewer.every((e) => e.actor === 'viewer@shop.example')).toBe(true);
    const future = new Date(clock.now() + 48 * HOUR).toISOString().slice(0, 10);
    expect((await owner.call(`${base}/audit?from=${future}`)).json.data.entries).toEqual([]);
    const page = await owner.call(`${base}/audit?limit=2`);
    const next = await owner.call(`${base}/audit?limit=2&cursor=${page.json.data.next_cursor}`);
    expect(next.json.data.entries[0].id).not.toBe(page.json.data.entries[1].id);

    for (const q of ['action=DROP%20TABLE', 'from=yesterday', 'actor=nobody', 'limit=0', 'cursor=zzz', 'x=1'])
      expect((await owner.call(`${base}/audit?${q}`)).status, q).toBe(422);
    const other = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Other 2', mode: 'test' });
    expect((await owner.call(`/merchants/${other.merchant_id}/audit`)).status).toBe(404);
    expect((await owner.call(`/merchants/${other.merchant_id}/exports/audit.csv`)).status).toBe(404);
  });

  it('exports the filtered entries as CSV with the payments export escaping', async () => {
    clock.advance(1000);
    await owner.call(`${base}/settings`, { method: 'PATCH', body: { name: 'Test shop' } });
    const r = await viewer.call(`${base}/exports/audit.csv?action=settings`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/text\/csv/);
    expect(r.headers.get('content-disposition')).toMatch(/attachment; filename="audit-mer_\w+\.csv"/);
    const lines = r.text.trim().split('\r\n');
    expect(lines[0]).toBe('at,actor,action,target,details,client_address');
    expect(lines.slice(1).every((l) => l.includes('"settings.update"'))).toBe(true);
    expect(lines[1]).toContain('"{""name"":""Test shop""}"');
    expect((await owner.call(`${base}/exports/audit.csv?from=nope`)).status).toBe(422);
  });

  it('a change that fails leaves no entry', async () => {
    const before = await count('audit_log');
    const waiting = await t.api('/api/v1/payments', { body: { amount: 10, currency: 'btc', email: 'a@b.example' } });
    const id = waiting.json.data.payment.payment_id;
    expect((await owner.call(`${base}/payments/${id}/refund`, { body: {} })).status).toBe(400);
    expect((await owner.call(`${base}/keys/key_nosuchkey000000/rotate`, { body: {} })).status).toBe(404);
    expect((await owner.call(`${base}/keys/key_nosuchkey000000/deactivate`, { body: {} })).status).toBe(404);
    expect((await owner.call(`${base}/xpub`, { method: 'PUT', body: { xpub: 'xpub-not-a-key' } })).status).toBe(422);
    expect(
      (await owner.call(`${base}/webhook-endpoint`, { method: 'PUT', body: { url: 'ftp://x.example' } })).status,
    ).toBe(422);
    expect(await count('audit_log')).toBe(before);
  });

  it('the entry is written in the change’s transaction: when it cannot be written, the change is undone', async () => {
    const k = await owner.call(`${base}/keys`, { body: { kind: 'secret', label: 'kept' } });
    const keys = await count('api_keys');
    const db = t.service.deps.db;
    await sql`alter table audit_log rename to audit_log_away`.execute(db);
    try {
      const rotate = await owner.call(`${base}/keys/${k.json.data.id}/rotate`, { body: { grace_hours: 0 } });
      expect(rotate.status).toBe(500);
      const hook = await owner.call(`${base}/webhook-endpoint`, {
        method: 'PUT',
        body: { url: 'https://never.example/hook' },
      });
      expect(hook.status).toBe(500);
    } finally {
      await sql`alter table audit_log_away rename to audit_log`.execute(db);
    }
    expect(await count('api_keys')).toBe(keys);
    expect(await keyRow(k.json.data.id)).toMatchObject({ active: true, expires_at: null });
    expect((await balances(k.json.data.key)).status).toBe(200);
    expect((await owner.call(`${base}/webhook-endpoint`)).json.data.url).not.toBe('https://never.example/hook');
  });

  it('records sign-ins and failed sign-ins of a member', async () => {
    await signIn(t.url, 'viewer@shop.example', 'wrong password here').catch(() => undefined);
    const r = (await owner.call(`${base}/audit?action=sign_in.failed`)).json.data.entries;
    expect(r[0]).toMatchObject({ actor: 'viewer@shop.example', action: 'sign_in.failed', client_address: '127.0.0.1' });
  });
});
