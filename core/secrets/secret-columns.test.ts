import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshStoreUrl } from '../../server/testing/store.js';
import { viewKeyHex } from '../chains/monero/monero.js';
import { getMoneroKey, setViewKey } from '../chains/monero/monero-keys.js';
import { randomWalletKeys } from '../chains/monero/testing/wallet-keys.js';
import { systemClock } from '../clock.js';
import { createMerchant, getMerchant, updateMerchant } from '../merchants/merchants.js';
import { migrate, openStore, type Store } from '../store/db.js';
import { loadPageSecret } from '../store/settings.js';
import { Keyring, newKeyText, parseKey, SecretsKeyError } from './keyring.js';
import { listStoredSecrets } from './stored-secrets.js';

/*
 * The store's SecretColumns plugin on a real store (SQLite, or PostgreSQL with TEST_DATABASE_URL): the domain's own
 * store functions write and read the secret columns; what lies in the table is read past the plugin.
 */

let fresh: Awaited<ReturnType<typeof freshStoreUrl>>;
let store: Store;
const keyring = new Keyring(parseKey(newKeyText(), 'test key'));

beforeAll(async () => {
  fresh = await freshStoreUrl();
  store = openStore(fresh.url, { poolSize: 2 });
  await migrate(store);
});
afterAll(async () => {
  await store?.close();
  await fresh?.dispose();
});

const storedOf = async (table: string) => (await listStoredSecrets(store.db)).filter((s) => s.table === table);

describe('the secret columns', () => {
  it('refuse to be read or written before the store has its key', async () => {
    await expect(createMerchant(store.db, systemClock, { name: 'Early', mode: 'test' })).rejects.toThrow(
      SecretsKeyError,
    );
    expect(await storedOf('merchants')).toEqual([]);
    store.secrets.use(keyring);
  });

  it('are sealed on insert, update and upsert, and read back opened by the same store functions', async () => {
    const m = await createMerchant(store.db, systemClock, { name: 'Shop', mode: 'live' });
    const [row] = await storedOf('merchants');
    expect(row?.stored).toMatch(new RegExp(`^enc1:${keyring.id}:[A-Za-z0-9_-]+$`));
    expect(row?.stored).not.toContain(m.webhook_secret);
    expect((await getMerchant(store.db, m.merchant_id))?.webhook_secret).toBe(m.webhook_secret);

    await updateMerchant(store.db, systemClock, m.merchant_id, { webhookSecret: 'whsec_rotated_value_0123456789' });
    expect((await getMerchant(store.db, m.merchant_id))?.webhook_secret).toBe('whsec_rotated_value_0123456789');
    expect((await storedOf('merchants'))[0]?.stored).toMatch(/^enc1:/);

    // Set twice: the second is the upsert's update branch.
    const wallet = randomWalletKeys();
    for (let i = 0; i < 2; i++) {
      const set = await setViewKey(store.db, systemClock, m.merchant_id, wallet.address, wallet.viewKey);
      expect(set.ok).toBe(true);
    }
    const [vk] = await storedOf('merchant_xpubs');
    expect(vk?.stored).toMatch(/^enc1:/);
    expect(vk?.stored).not.toContain(wallet.viewKey);
    const key = await getMoneroKey(store.db, m.merchant_id);
    expect(key?.key.address).toBe(wallet.address);
    expect(key && viewKeyHex(key.key.viewKey)).toBe(wallet.viewKey);

    const page = await loadPageSecret(store.db);
    expect(await loadPageSecret(store.db)).toBe(page);
    const [setting] = (await storedOf('dropin_settings')).filter((s) => s.key.key === 'page_secret');
    expect(setting?.stored).toMatch(/^enc1:/);
  });

  it('open only in the column they were sealed for, only unaltered, only with their key', async () => {
    const sealed = keyring.seal('whsec_x', 'merchants.webhook_secret');
    expect(keyring.open(sealed, 'merchants.webhook_secret')).toBe('whsec_x');
    expect(() => keyring.open(sealed, 'merchant_xpubs.view_key')).toThrow(/does not open/);
    const body = sealed.split(':')[2] ?? '';
    const flipped = `${sealed.slice(0, -body.length)}${body[0] === 'A' ? 'B' : 'A'}${body.slice(1)}`;
    expect(() => keyring.open(flipped, 'merchants.webhook_secret')).toThrow(/does not open/);
    const other = new Keyring(parseKey(newKeyText(), 'other'));
    expect(() => other.open(sealed, 'merchants.webhook_secret')).toThrow(/sealed under secrets key/);
    // Two seals of one value differ (a random nonce each): equal secrets are not told apart by their ciphertext.
    expect(keyring.seal('whsec_x', 'merchants.webhook_secret')).not.toBe(sealed);
  });
});

describe('keys', () => {
  it('are 32 bytes as base64 or hex; anything else is named and refused', () => {
    const hex = 'ab'.repeat(32);
    expect(new Keyring(parseKey(hex, 'SECRETS_KEY')).id).toBe(
      new Keyring(parseKey(Buffer.from(hex, 'hex').toString('base64'), 'SECRETS_KEY')).id,
    );
    expect(() => parseKey('hunter2', 'SECRETS_KEY')).toThrow(/^SECRETS_KEY: must be a 32-byte key/);
    expect(() => parseKey(Buffer.alloc(16).toString('base64'), 'SECRETS_KEY')).toThrow(SecretsKeyError);
  });
});
