import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dashFetch } from '../../dashboard-api/testing/client.js';
import { randomWalletKeys } from '../chains/monero/testing/wallet-keys.js';
import { newKeyText } from './keyring.js';
import {
  admin,
  codeAt,
  dir,
  inTheClear,
  isPostgres,
  key1,
  key2,
  known,
  rcv,
  refusedStart,
  setUpSecretsAtRest,
  signInWithCode,
  start,
  stolenCopy,
  stop,
  storedKeyIds,
  storeUrl,
  testEventVerified,
} from './testing/secrets-at-rest.js';

/*
 * Secrets at rest (issue 27, item 4), proven on the service as deployed (set-up in testing/secrets-at-rest.ts): a
 * stolen copy of the store (the file, a backup, a dump) is searched byte for byte for the secrets the test knows; the key
 * is rotated, and the webhook signatures (checked by a real receiver) and TOTP codes still work under the new key only.
 * secrets-default-key.test.ts has the default key file and a store from before encryption at rest.
 */

setUpSecretsAtRest();
let firstSubaddress = '';

describe('secrets at rest', () => {
  it('a stolen copy of the store (file, backup or dump) holds no webhook secret, TOTP secret or view key', async () => {
    const s = await start({ SECRETS_KEY_FILE: key1 });
    await s.listening();
    known.demoPassword = /password (\S+) \(shown once\)/.exec(s.stdout())?.[1] ?? '';
    expect(known.demoPassword).not.toBe('');

    // A webhook secret, checked by a real receiver.
    const shop = await admin(
      ['merchant', 'create', '--name', 'Shop', '--mode', 'test', '--webhook-url', rcv.url, '--json'],
      {
        SECRETS_KEY_FILE: key1,
      },
    );
    expect(shop.code, shop.stderr).toBe(0);
    const created = JSON.parse(shop.stdout);
    known.webhookSecret = created.webhook_secret;
    known.secretKey = created.secret_key;
    rcv.secret = known.webhookSecret;
    expect(await testEventVerified(s)).toBe(true);

    // A Monero view key of a live merchant.
    const wallet = randomWalletKeys();
    known.viewKey = wallet.viewKey;
    known.xmrAddress = wallet.address;
    const live = JSON.parse(
      (await admin(['merchant', 'create', '--name', 'XMR', '--mode', 'live', '--json'], { SECRETS_KEY_FILE: key1 }))
        .stdout,
    );
    known.xmrMerchant = live.merchant_id;
    const set = await admin(
      ['viewkey', 'set', '--merchant', live.merchant_id, '--address', wallet.address, '--view-key', wallet.viewKey],
      { SECRETS_KEY_FILE: key1 },
    );
    expect(set.code, set.stderr).toBe(0);
    const shown = await admin(['viewkey', 'show', '--merchant', live.merchant_id, '--json'], {
      SECRETS_KEY_FILE: key1,
    });
    firstSubaddress = JSON.parse(shown.stdout).first_subaddress;
    expect(firstSubaddress).toMatch(/^8/);

    // A TOTP secret: the demo owner turns two-factor on in the dashboard.
    const signedIn = await dashFetch(s.url, '/session', {
      body: { email: 'demo@example.com', password: known.demoPassword },
    });
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const headers = { cookie, 'x-csrf-token': signedIn.json.data.csrf_token };
    const setup = await dashFetch(s.url, '/account/two-factor/setup', { method: 'POST', headers });
    known.totpSecret = setup.json.data.secret;
    expect(known.totpSecret).toMatch(/^[A-Z2-7]{32}$/);
    const on = await dashFetch(s.url, '/account/two-factor', {
      body: { code: codeAt(known.totpSecret, Date.now()) },
      headers,
    });
    expect(on.status).toBe(201);

    await stop();
    const copy = await stolenCopy();
    // The copy is the real thing: the public parts of those very rows are there in the clear.
    expect(copy.includes(Buffer.from(known.xmrAddress))).toBe(true);
    expect(copy.includes(Buffer.from('demo@example.com'))).toBe(true);
    expect(inTheClear(copy)).toEqual([]);
    expect(await storedKeyIds()).toHaveLength(1);

    if (!isPostgres()) {
      const backup = join(dir, 'backup.sqlite');
      const b = await admin(['backup', '--to', backup], { SECRETS_KEY_FILE: key1 });
      expect(b.code, b.stderr).toBe(0);
      const bytes = readFileSync(backup);
      expect(bytes.includes(Buffer.from(known.xmrAddress))).toBe(true);
      expect(inTheClear(bytes)).toEqual([]);
    }
  }, 120_000);

  it('refuses to start with one line naming the variable when the key is wrong or missing', async () => {
    const wrong = await refusedStart({ SECRETS_KEY: newKeyText() });
    expect(wrong.code).toBe(1);
    expect(wrong.lines).toEqual([expect.stringMatching(/^Cannot start: SECRETS_KEY: not the key the store's secrets/)]);

    const garbage = await refusedStart({ SECRETS_KEY: 'hunter2' });
    expect(garbage.code).toBe(1);
    expect(garbage.lines).toEqual([expect.stringMatching(/^Cannot start: SECRETS_KEY: must be a 32-byte key/)]);

    const absent = await refusedStart({ SECRETS_KEY_FILE: join(dir, 'no-such-file') });
    expect(absent.code).toBe(1);
    expect(absent.lines).toEqual([expect.stringMatching(/^Cannot start: SECRETS_KEY_FILE: cannot read .*ENOENT/)]);

    // No key configured at all: on SQLite the default key file beside the store does not exist, and is not made up.
    if (!isPostgres()) {
      const none = await refusedStart({});
      expect(none.code).toBe(1);
      expect(none.lines).toEqual([
        expect.stringMatching(/^Cannot start: SECRETS_KEY_FILE \(or SECRETS_KEY\) is not set/),
      ]);
      expect(existsSync(`${storeUrl.url.slice('sqlite:'.length)}.key`)).toBe(false);
    }
  }, 120_000);

  it('rotate-key re-encrypts every secret under the new key in one go: signatures and TOTP codes still check', async () => {
    const before = await storedKeyIds();
    const r = await admin(['secrets', 'rotate-key', '--new-key-file', key2], { SECRETS_KEY_FILE: key1 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Re-encrypted \d+ secrets under key [0-9a-f]{8} \(was [0-9a-f]{8}\)/);
    expect(statSync(key2).mode & 0o777).toBe(0o600);
    const after = await storedKeyIds();
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before[0]);

    // The old key opens nothing any more.
    const old = await refusedStart({ SECRETS_KEY_FILE: key1 });
    expect(old.lines).toEqual([expect.stringMatching(/^Cannot start: SECRETS_KEY_FILE: not the key/)]);

    // Given as the variable itself this time (the file's text).
    const s = await start({ SECRETS_KEY: readFileSync(key2, 'utf8').trim() });
    await s.listening();
    expect(await testEventVerified(s)).toBe(true);
    expect(await signInWithCode(s)).toBe(200);
    await stop();
    const shown = await admin(['viewkey', 'show', '--merchant', known.xmrMerchant, '--json'], {
      SECRETS_KEY_FILE: key2,
    });
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout).first_subaddress).toBe(firstSubaddress);
    expect(inTheClear(await stolenCopy())).toEqual([]);
  }, 120_000);
});
