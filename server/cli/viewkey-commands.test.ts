import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseViewKey, subaddressAt } from '../../core/chains/monero/monero.js';
import { randomWalletKeys } from '../../core/chains/monero/testing/wallet-keys.js';
import { freshStoreUrl } from '../testing/store.js';

let store: { url: string; dispose: () => Promise<void> };

/** Runs the real admin CLI in its own process, as an operator would; `stdin` is piped in when given. */
async function admin(args: string[], stdin?: string) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      'npx',
      ['tsx', 'server/admin-cli.ts', ...args],
      { env: { ...process.env, DATABASE_URL: store.url } },
      (e, stdout, stderr) => resolve({ code: e ? ((e as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(stdin ?? '');
  });
}

beforeAll(async () => {
  store = await freshStoreUrl();
});
afterAll(async () => {
  await store.dispose();
});

describe('admin CLI: viewkey', () => {
  it('registers address + view key, prints subaddress 1 and never the key; refuses spend keys, seeds, mismatches and test merchants', async () => {
    const live = JSON.parse(
      (await admin(['merchant', 'create', '--name', 'Monero shop', '--mode', 'live', '--json'])).stdout,
    );
    const test = JSON.parse(
      (await admin(['merchant', 'create', '--name', 'Test shop', '--mode', 'test', '--json'])).stdout,
    );
    const k = randomWalletKeys();
    const parsed = parseViewKey(k.address, k.viewKey);
    if (!parsed.ok) throw parsed.error;

    const spend = await admin([
      'viewkey',
      'set',
      '--merchant',
      live.merchant_id,
      '--address',
      k.address,
      '--view-key',
      k.spendKey,
    ]);
    expect(spend.code).not.toBe(0);
    expect(spend.stderr).toMatch(/SPEND key/);
    expect(spend.stderr).not.toContain(k.spendKey);
    const seed = await admin(
      ['viewkey', 'set', '--merchant', live.merchant_id, '--address', k.address, '--view-key-stdin'],
      `${Array(25).fill('abbey').join(' ')}\n`,
    );
    expect(seed.stderr).toMatch(/mnemonic seed/);
    const other = await admin([
      'viewkey',
      'set',
      '--merchant',
      live.merchant_id,
      '--address',
      k.address,
      '--view-key',
      randomWalletKeys().viewKey,
    ]);
    expect(other.stderr).toMatch(/does not belong to this address/);
    const onTest = await admin([
      'viewkey',
      'set',
      '--merchant',
      test.merchant_id,
      '--address',
      k.address,
      '--view-key',
      k.viewKey,
    ]);
    expect(onTest.stderr).toMatch(/Only live merchants/);

    const set = await admin(
      ['viewkey', 'set', '--merchant', live.merchant_id, '--address', k.address, '--view-key-stdin'],
      `${k.viewKey}\n`,
    );
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain(`First subaddress (account 0, index 1): ${subaddressAt(parsed.value, 1)}`);
    expect(set.stdout).not.toContain(k.viewKey);

    const shown = JSON.parse((await admin(['viewkey', 'show', '--merchant', live.merchant_id, '--json'])).stdout);
    expect(shown).toMatchObject({
      address: k.address,
      first_subaddress: subaddressAt(parsed.value, 1),
      next_subaddress_index: 1,
      unused_run: 0,
      lookahead: 200,
    });
    expect(JSON.stringify(shown)).not.toContain(k.viewKey);

    // Another merchant cannot register the same wallet (both would be paid at the same subaddresses).
    const second = JSON.parse(
      (await admin(['merchant', 'create', '--name', 'Other shop', '--mode', 'live', '--json'])).stdout,
    );
    const reused = await admin([
      'viewkey',
      'set',
      '--merchant',
      second.merchant_id,
      '--address',
      k.address,
      '--view-key',
      k.viewKey,
    ]);
    expect(reused.stderr).toMatch(/already registered by another merchant/);
  }, 120_000);
});
