import { execFile } from 'node:child_process';
import { pbkdf2Sync } from 'node:crypto';
import { promisify } from 'node:util';
import { HDKey } from '@scure/bip32';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshStoreUrl } from '../testing/store.js';

const run = promisify(execFile);
let store: { url: string; dispose: () => Promise<void> };

/** Runs the real admin CLI in its own process, as an operator would. */
async function admin(args: string[]) {
  try {
    const r = await run('npx', ['tsx', 'server/admin-cli.ts', ...args], {
      env: { ...process.env, DATABASE_URL: store.url },
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

// anvil's default wallet ("test test ... junk"): its account xpub's child 0/0 is the well-known first account.
const seed = pbkdf2Sync('test test test test test test test test test test test junk', 'mnemonic', 2048, 64, 'sha512');
const account = HDKey.fromMasterSeed(new Uint8Array(seed)).derive("m/44'/60'/0'");

beforeAll(async () => {
  store = await freshStoreUrl();
});
afterAll(async () => {
  await store.dispose();
});

describe('admin CLI: xpub', () => {
  it('registers a live merchant xpub, shows the next payment address, and refuses private keys, test merchants and reuse', async () => {
    const live = JSON.parse(
      (await admin(['merchant', 'create', '--name', 'Live shop', '--mode', 'live', '--json'])).stdout,
    );
    const test = JSON.parse(
      (await admin(['merchant', 'create', '--name', 'Test shop', '--mode', 'test', '--json'])).stdout,
    );

    const set = await admin([
      'xpub',
      'set',
      '--merchant',
      live.merchant_id,
      '--xpub',
      account.publicExtendedKey,
      '--json',
    ]);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({
      chain: 'evm',
      xpub: account.publicExtendedKey,
      depth: 3,
      next_address_index: 0,
      next_address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    });

    const shown = await admin(['xpub', 'show', '--merchant', live.merchant_id]);
    expect(shown.stdout).toContain(account.publicExtendedKey);
    expect(shown.stdout).toContain('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');

    const xprv = account.privateExtendedKey;
    const refused = await admin(['xpub', 'set', '--merchant', live.merchant_id, '--xpub', xprv]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/PRIVATE/);
    expect(refused.stdout + refused.stderr).not.toContain(xprv.slice(4));

    const onTest = await admin(['xpub', 'set', '--merchant', test.merchant_id, '--xpub', account.publicExtendedKey]);
    expect(onTest.code).toBe(2);
    expect(onTest.stderr).toMatch(/live merchants/);

    const other = JSON.parse(
      (await admin(['merchant', 'create', '--name', 'Other', '--mode', 'live', '--json'])).stdout,
    );
    const reused = await admin(['xpub', 'set', '--merchant', other.merchant_id, '--xpub', account.publicExtendedKey]);
    expect(reused.code).toBe(2);
    expect(reused.stderr).toMatch(/another merchant/);
    // Still the first merchant's key, untouched by the refusals.
    expect(JSON.parse((await admin(['xpub', 'show', '--merchant', live.merchant_id, '--json'])).stdout).xpub).toBe(
      account.publicExtendedKey,
    );
  }, 90_000);

  it('registers one key per Bitcoin-family chain: prints the path and first address, refuses zprv unechoed and reuse across merchants', async () => {
    const live = JSON.parse(
      (await admin(['merchant', 'create', '--name', 'BTC shop', '--mode', 'live', '--json'])).stdout,
    );
    const other = JSON.parse(
      (await admin(['merchant', 'create', '--name', 'Other', '--mode', 'live', '--json'])).stdout,
    );

    // BIP84's own test vector (account m/84'/0'/0' of "abandon ... about") as the wallet exports it.
    const set = await admin(['xpub', 'set', '--merchant', live.merchant_id, '--chain', 'btc', '--xpub', BIP84_ZPUB]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain("m/84'/0'/0'");
    expect(set.stdout).toContain('First address');
    expect(set.stdout).toContain('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');

    const ltc = await admin([
      'xpub',
      'set',
      '--merchant',
      live.merchant_id,
      '--chain',
      'ltc',
      '--xpub',
      LTC_ACCOUNT,
      '--json',
    ]);
    expect(ltc.code, ltc.stderr).toBe(0);
    expect(JSON.parse(ltc.stdout)).toMatchObject({
      chain: 'ltc',
      network: 'main',
      path: "m/84'/2'/0'",
      first_address: 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh',
      next_address_index: 0,
      unused_run: 0,
      gap_limit: 20,
    });
    const doge = await admin([
      'xpub',
      'set',
      '--merchant',
      live.merchant_id,
      '--chain',
      'doge',
      '--xpub',
      DOGE_ACCOUNT,
    ]);
    expect(doge.stdout).toContain('DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC');
    expect(doge.stdout).toContain("m/44'/3'/0'");

    // The keys live side by side: each chain shows its own, and the EVM key slot is untouched.
    const shown = JSON.parse(
      (await admin(['xpub', 'show', '--merchant', live.merchant_id, '--chain', 'btc', '--json'])).stdout,
    );
    expect(shown.first_address).toBe('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
    expect((await admin(['xpub', 'show', '--merchant', live.merchant_id])).stdout).toContain('no evm key');

    const zprv = bip84Zprv();
    const refused = await admin(['xpub', 'set', '--merchant', live.merchant_id, '--chain', 'btc', '--xpub', zprv]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/PRIVATE/);
    expect(refused.stdout + refused.stderr).not.toContain(zprv.slice(4, 40));

    // The same LTC key on another merchant is refused; another merchant may register a key of its own for LTC.
    const reused = await admin([
      'xpub',
      'set',
      '--merchant',
      other.merchant_id,
      '--chain',
      'ltc',
      '--xpub',
      LTC_ACCOUNT,
    ]);
    expect(reused.code).toBe(2);
    expect(reused.stderr).toMatch(/another merchant/);
    const own = await admin(['xpub', 'set', '--merchant', other.merchant_id, '--chain', 'ltc', '--xpub', BIP84_ZPUB]);
    expect(own.code, own.stderr).toBe(0);
    expect(own.stdout).toContain("m/84'/2'/0'");
    const bad = await admin(['xpub', 'set', '--merchant', other.merchant_id, '--chain', 'sol', '--xpub', LTC_ACCOUNT]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--chain: one of evm, btc, ltc, doge/);
  }, 120_000);
});

const BIP84_ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
/** "abandon ... about", m/84'/2'/0' and m/44'/3'/0' as xpub (core/chains/bitcoin/utxo.test.ts). */
const LTC_ACCOUNT =
  'xpub6CjGURuDpczf6uNrCCwfhVizn5J3hsWcvZ2m6GAdmAjZnoWJPrx6TFPjGSftc2o5fvox6ubQjSXmjjaHZjwYMH7SGFpHHb9Jg24zBf66mbE';
const DOGE_ACCOUNT =
  'xpub6Bxse8AT19u9HExKtP1EAudLi9CpLxPpxDvanL2fFtM7UFE2Q7TTWRg4bnMnmT4KcyN6GQkSgZmPWDtyUywSii3MDpMNfXSTuzH7gvZywLU';

/** BIP84's account private key (m/84'/0'/0' of "abandon ... about") as zprv, as a careless paste would carry it. */
function bip84Zprv(): string {
  const abandon = pbkdf2Sync(
    'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
    'mnemonic',
    2048,
    64,
    'sha512',
  );
  const zprvVersions = { private: 0x04b2430c, public: 0x04b24746 };
  return HDKey.fromMasterSeed(new Uint8Array(abandon), zprvVersions).derive("m/84'/0'/0'").privateExtendedKey;
}
