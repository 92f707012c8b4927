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
      family: 'evm',
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
});
