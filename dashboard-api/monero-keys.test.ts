import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseViewKey, subaddressAt } from '../core/chains/monero/monero.js';
import { randomWalletKeys } from '../core/chains/monero/testing/wallet-keys.js';
import { createMerchant } from '../core/merchants/merchants.js';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { userOf } from './testing/client.js';

let t: TestService;

beforeAll(async () => {
  t = await startTestService({ start: false });
});
afterAll(async () => {
  await t.close();
});

describe('dashboard: Monero address and view key', () => {
  it('an owner saves them for a live merchant; the answer and settings show subaddress 1, never the key; bad keys are 422 unechoed', async () => {
    const live = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'XMR shop', mode: 'live' });
    const owner = await userOf(t, live.merchant_id, 'owner@xmr.example');
    const base = `/merchants/${live.merchant_id}`;
    const k = randomWalletKeys();
    const parsed = parseViewKey(k.address, k.viewKey);
    if (!parsed.ok) throw parsed.error;

    const spend = await owner.call(`${base}/monero-keys`, {
      method: 'PUT',
      body: { address: k.address, view_key: k.spendKey },
    });
    expect(spend.status).toBe(422);
    expect(spend.json.errors.view_key[0]).toMatch(/SPEND key/);
    expect(spend.text).not.toContain(k.spendKey);
    const mismatch = await owner.call(`${base}/monero-keys`, {
      method: 'PUT',
      body: { address: k.address, view_key: randomWalletKeys().viewKey },
    });
    expect(mismatch.json.errors.view_key[0]).toMatch(/does not belong/);
    const badAddress = await owner.call(`${base}/monero-keys`, {
      method: 'PUT',
      // Another last character (never the same one: a random address ends in x one time in 58).
      body: { address: `${k.address.slice(0, -1)}${k.address.endsWith('x') ? 'y' : 'x'}`, view_key: k.viewKey },
    });
    expect(badAddress.status).toBe(422);
    expect(Object.keys(badAddress.json.errors)).toEqual(['address']);
    expect((await owner.call(`${base}/monero-keys`, { method: 'PUT', body: { address: k.address } })).status).toBe(422);
    expect((await owner.call(`${base}/settings`)).json.data.monero).toBeNull();
    // Refused changes leave no audit entry.
    const entries = () =>
      t.service.deps.db
        .selectFrom('audit_log')
        .selectAll()
        .where('merchant_id', '=', live.merchant_id)
        .where('action', '=', 'monero_keys.set')
        .execute();
    expect(await entries()).toEqual([]);

    const saved = await owner.call(`${base}/monero-keys`, {
      method: 'PUT',
      body: { address: k.address, view_key: k.viewKey },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json.data).toEqual({
      address: k.address,
      first_subaddress: subaddressAt(parsed.value, 1),
      next_index: 1,
    });
    expect(saved.text).not.toContain(k.viewKey);
    const settings = await owner.call(`${base}/settings`);
    expect(settings.json.data.monero).toEqual(saved.json.data);
    expect(settings.text).not.toContain(k.viewKey);
    // The change is audited in its own transaction, with the address's ends and never the key.
    const audit = await entries();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actor_email).toBe('owner@xmr.example');
    expect(JSON.stringify(audit)).toContain(k.address.slice(0, 8));
    expect(JSON.stringify(audit)).not.toContain(k.viewKey);

    // Viewers read but do not change; a test merchant has no live keys.
    const viewer = await userOf(t, live.merchant_id, 'viewer@xmr.example', 'viewer');
    const byViewer = await viewer.call(`${base}/monero-keys`, {
      method: 'PUT',
      body: { address: k.address, view_key: k.viewKey },
    });
    expect(byViewer.status).toBe(403);
    const testOwner = await userOf(t, t.merchant.merchant_id, 'owner@test.example');
    const onTest = await testOwner.call(`/merchants/${t.merchant.merchant_id}/monero-keys`, {
      method: 'PUT',
      body: { address: k.address, view_key: k.viewKey },
    });
    expect(onTest.status).toBe(400);
  });
});
