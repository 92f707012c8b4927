import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAddress, getContractAddress, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { until } from '../../../../server/testing/until.js';
import { ANVIL_CHAIN_ID, ANVIL_FUNDED } from '../testing/anvil.js';
import {
  admin,
  anvil,
  clock,
  mine,
  network,
  payout,
  setUpForwarders,
  startService,
  t,
  writeChains,
} from './testing/live-forwarders.js';

/*
 * Forwarders on a real anvil (set-up in testing/live-forwarders.ts): the factory deployed by the admin CLI, and a
 * configured factory address with no code. forwarders-sweep-live.test.ts has the sweeps.
 */

setUpForwarders();

describe('forwarders on a real anvil', () => {
  it('the admin CLI deploys the factory from a fresh key read from standard input, after checking the chain id', async () => {
    const deployer = generatePrivateKey();
    const from = privateKeyToAccount(deployer).address;
    await anvil.wallet.sendTransaction({ to: from, value: parseEther('1'), account: ANVIL_FUNDED, chain: null });
    await mine();
    const env = { DATABASE_URL: `sqlite:${join(tmpdir(), `cli-${randomBytes(4).toString('hex')}.sqlite`)}` };

    const wrongChain = join(tmpdir(), `chains-${randomBytes(4).toString('hex')}.json`);
    writeFileSync(wrongChain, JSON.stringify({ networks: { eth: { ...network(), chainId: 5 } } }));
    const refused = await admin(
      ['evm', 'deploy-factory', '--network', 'eth'],
      { ...env, CHAINS_CONFIG: wrongChain },
      deployer,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('serves chain id 31337, CHAINS_CONFIG says 5');
    expect(await anvil.public.getTransactionCount({ address: from })).toBe(0);

    const noKey = await admin(
      ['evm', 'deploy-factory', '--network', 'eth'],
      { ...env, CHAINS_CONFIG: writeChains() },
      'not a key',
    );
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('32-byte hex private key');

    const r = await admin(
      ['evm', 'deploy-factory', '--network', 'eth', '--json'],
      { ...env, CHAINS_CONFIG: writeChains() },
      `${deployer}\n`,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(deployer.slice(2));
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ network: 'eth', chain_id: ANVIL_CHAIN_ID, deployer_nonce: 0 });
    const factory = getAddress(out.factory);
    // Nonce 0 of a fresh key: the address any chain gets from the same key.
    expect(factory).toBe(getContractAddress({ from, nonce: 0n }));
    expect(await anvil.public.getCode({ address: factory })).toMatch(/^0x[0-9a-f]{100,}$/);
  }, 120_000);

  it('a factory address with no code: payments of merchants with a payout are refused with a clear message, nothing written', async () => {
    await t?.close(); // no service yet in this file: the sweeps (forwarders-sweep-live.test.ts) started one
    const empty = writeChains({ forwarderFactory: '0x000000000000000000000000000000000000bEEF', sweepIntervalMs: 100 });
    await startService(empty);
    const { setPayout } = await import('../../../forwarders/payouts.js');
    expect((await setPayout(t.service.deps.db, clock, t.merchant.merchant_id, 'evm', payout)).ok).toBe(true);
    await until(
      async () => t.service.deps.sweepers[0]?.status().factoryProblem ?? '',
      (p) => p.includes('has no code'),
    );
    await until(
      async () => (await t.api('/api/v1/currencies')).json.data.map((c: { code: string }) => c.code),
      (c) => c.includes('ETH'),
    );
    const r = await t.api('/api/v1/payments', { body: { amount: 30, currency: 'ETH', email: 'alice@example.com' } });
    expect(r.status).toBe(422);
    expect(r.json.errors.currency[0]).toBe(
      `Live payments in ETH are paused: forwarderFactory 0x000000000000000000000000000000000000bEEF has no code on chain ${ANVIL_CHAIN_ID} (deploy it: admin evm deploy-factory)`,
    );
    expect(await t.service.deps.db.selectFrom('payments').selectAll().execute()).toEqual([]);
    expect(await t.service.deps.db.selectFrom('evm_forwarders').selectAll().execute()).toEqual([]);
  }, 120_000);
});
