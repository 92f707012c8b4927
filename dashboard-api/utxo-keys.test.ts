import { randomBytes } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchant } from '../core/merchants/merchants.js';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { userOf } from './testing/client.js';

/*
 * Bitcoin-family account keys set from the dashboard's settings (issue 27, item 7): until now only the admin CLI
 * (`admin xpub set --chain btc|ltc|doge`) could. Same checks, the first addresses shown before saving, owners only,
 * audited. Vectors: BIP84's published test vector and the "abandon ... about" accounts of core/chains/bitcoin/utxo.test.ts.
 */

const BIP84_ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const BIP84_ADDRESSES = [
  'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
  'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g',
  'bc1qp59yckz4ae5c4efgw2s5wfyvrz0ala7rgvuz8z',
];
const BIP84_TESTNET_VPUB =
  'vpub5Y6cjg78GGuNLsaPhmYsiw4gYX3HoQiRBiSwDaBXKUafCt9bNwWQiitDk5VZ5BVxYnQdwoTyXSs2JHRPAgjAvtbBrf8ZhDYe2jWAqvZVnsc';
const LTC_ACCOUNT =
  'xpub6CjGURuDpczf6uNrCCwfhVizn5J3hsWcvZ2m6GAdmAjZnoWJPrx6TFPjGSftc2o5fvox6ubQjSXmjjaHZjwYMH7SGFpHHb9Jg24zBf66mbE';
const LTC_FIRST = ['ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh', 'ltc1qwlezpr3890hcp6vva9twqh27mr6edadreqvhnn'];
const DOGE_ACCOUNT =
  'xpub6Bxse8AT19u9HExKtP1EAudLi9CpLxPpxDvanL2fFtM7UFE2Q7TTWRg4bnMnmT4KcyN6GQkSgZmPWDtyUywSii3MDpMNfXSTuzH7gvZywLU';
const DOGE_FIRST = 'DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t.close();
});

const auditOf = (merchantId: string) =>
  t.service.deps.db
    .selectFrom('audit_log')
    .select(['action', 'details'])
    .where('merchant_id', '=', merchantId)
    .where('action', '=', 'xpub.set')
    .execute();

describe('Bitcoin-family keys in the dashboard settings', () => {
  it('shows the first three addresses of a BTC key before saving, saves it, shows it in settings and audits it', async () => {
    const live = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'BTC shop', mode: 'live' });
    const owner = await userOf(t, live.merchant_id, 'owner@btc.example');
    const base = `/merchants/${live.merchant_id}`;

    const before = (await owner.call(`${base}/settings`)).json.data.utxo_keys;
    expect(before.map((k: { chain: string; path: string; xpub: null }) => [k.chain, k.path, k.xpub])).toEqual([
      ['btc', "m/84'/0'/0'", null],
      ['ltc', "m/84'/2'/0'", null],
      ['doge', "m/44'/3'/0'", null],
    ]);

    const preview = await owner.call(`${base}/xpub/preview`, { body: { chain: 'btc', xpub: BIP84_ZPUB } });
    expect(preview.status).toBe(200);
    expect(preview.json.data).toMatchObject({ family: 'btc', depth: 3, path: "m/84'/0'/0'" });
    expect(preview.json.data.addresses.map((a: { address: string }) => a.address)).toEqual(BIP84_ADDRESSES);
    // Previewing saves nothing.
    expect((await owner.call(`${base}/settings`)).json.data.utxo_keys[0].xpub).toBeNull();
    expect(await auditOf(live.merchant_id)).toEqual([]);

    const saved = await owner.call(`${base}/xpub`, { method: 'PUT', body: { chain: 'btc', xpub: BIP84_ZPUB } });
    expect(saved.status).toBe(200);
    expect(saved.json.data.addresses[0].address).toBe(BIP84_ADDRESSES[0]);
    const btc = (await owner.call(`${base}/settings`)).json.data.utxo_keys[0];
    expect(btc).toMatchObject({ chain: 'btc', xpub: preview.json.data.xpub, next_index: 0 });
    expect(btc.addresses.map((a: { address: string }) => a.address)).toEqual(BIP84_ADDRESSES);
    // The EVM key is another key: untouched.
    expect((await owner.call(`${base}/settings`)).json.data.xpub).toBeNull();
    const audit = await auditOf(live.merchant_id);
    expect(audit).toHaveLength(1);
    expect(String(audit[0]?.details)).toContain('"family":"btc"');
    expect(String(audit[0]?.details)).not.toContain(preview.json.data.xpub);
  });

  it('reads LTC and DOGE keys for their own chains', async () => {
    const live = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'LTC shop', mode: 'live' });
    const owner = await userOf(t, live.merchant_id, 'owner@ltc.example');
    const base = `/merchants/${live.merchant_id}`;
    const ltc = await owner.call(`${base}/xpub/preview`, { body: { chain: 'ltc', xpub: LTC_ACCOUNT } });
    expect(ltc.json.data.addresses.slice(0, 2).map((a: { address: string }) => a.address)).toEqual(LTC_FIRST);
    const doge = await owner.call(`${base}/xpub`, { method: 'PUT', body: { chain: 'doge', xpub: DOGE_ACCOUNT } });
    expect(doge.status).toBe(200);
    const keys = (await owner.call(`${base}/settings`)).json.data.utxo_keys;
    expect(keys[2]).toMatchObject({ chain: 'doge', path: "m/44'/3'/0'" });
    expect(keys[2].addresses[0].address).toBe(DOGE_FIRST);
    expect(keys[1].xpub).toBeNull();
  });

  it('refuses what the admin CLI refuses: a private key (never echoed), a test-network key, an unknown chain, a test merchant', async () => {
    const live = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Careful shop', mode: 'live' });
    const owner = await userOf(t, live.merchant_id, 'owner@careful.example');
    const base = `/merchants/${live.merchant_id}`;
    const xprv = HDKey.fromMasterSeed(randomBytes(32)).derive("m/84'/0'/0'").privateExtendedKey;
    for (const path of ['/xpub/preview', '/xpub']) {
      const method = path === '/xpub' ? 'PUT' : 'POST';
      const priv = await owner.call(`${base}${path}`, { method, body: { chain: 'btc', xpub: xprv } });
      expect(priv.status).toBe(422);
      expect(Object.keys(priv.json.errors)).toEqual(['xpub']);
      expect(priv.text).not.toContain(xprv);
      const testnet = await owner.call(`${base}${path}`, { method, body: { chain: 'btc', xpub: BIP84_TESTNET_VPUB } });
      expect(testnet.status).toBe(422);
      expect(Object.keys(testnet.json.errors)).toEqual(['xpub']);
      const chain = await owner.call(`${base}${path}`, { method, body: { chain: 'xrp', xpub: BIP84_ZPUB } });
      expect(chain.status).toBe(422);
      expect(Object.keys(chain.json.errors)).toEqual(['chain']);
    }
    expect((await owner.call(`${base}/settings`)).json.data.utxo_keys.every((k: { xpub: null }) => !k.xpub)).toBe(true);
    expect(await auditOf(live.merchant_id)).toEqual([]);

    const testOwner = await userOf(t, t.merchant.merchant_id, 'owner@test-shop.example');
    const refused = await testOwner.call(`/merchants/${t.merchant.merchant_id}/xpub`, {
      method: 'PUT',
      body: { chain: 'btc', xpub: BIP84_ZPUB },
    });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toMatch(/Only live merchants/);
  });

  it('lets only owners set a key: a viewer gets 403 and nothing changes', async () => {
    const live = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Viewed shop', mode: 'live' });
    await userOf(t, live.merchant_id, 'owner@viewed.example');
    const viewer = await userOf(t, live.merchant_id, 'viewer@viewed.example', 'viewer');
    const base = `/merchants/${live.merchant_id}`;
    expect(
      (await viewer.call(`${base}/xpub`, { method: 'PUT', body: { chain: 'ltc', xpub: LTC_ACCOUNT } })).status,
    ).toBe(403);
    expect((await viewer.call(`${base}/settings`)).json.data.utxo_keys[1].xpub).toBeNull();
  });
});
