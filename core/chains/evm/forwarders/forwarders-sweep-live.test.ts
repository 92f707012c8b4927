import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEther } from 'viem';
import { describe, expect, it } from 'vitest';
import { until } from '../../../../server/testing/until.js';
import { ANVIL_CHAIN_ID, ANVIL_FUNDED, minedReceipt } from '../testing/anvil.js';
import { checksumTypo } from '../testing/checksum-typo.js';
import { forwarderAddress, forwarderSalt } from './address.js';
import {
  admin,
  anvil,
  CONFIRMATIONS,
  create,
  factory,
  forwarderRow,
  mine,
  paymentStatus,
  payout,
  processed,
  relayer,
  relayerKey,
  setUpForwarders,
  startService,
  t,
  tokenAbi,
  tokenBalance,
  usdt,
  writeChains,
} from './testing/live-forwarders.js';

/*
 * Forwarders swept on a real anvil (set-up in testing/live-forwarders.ts, the factory deployed as the admin CLI does):
 * a live merchant with a payout address set by the CLI, ETH and a USDT-like token with no bool return paid to forwarder
 * addresses, and the relayer sweeping them in one batch, first without gas (payments finish, the sweep waits and says
 * so), then funded; without a relayer, the calldata the CLI prints for any wallet.
 */

setUpForwarders(true);

describe('forwarders on a real anvil', () => {
  it('a live merchant with a payout address gets a forwarder for every EVM payment; the relayer without gas waits and says so; funded, it sweeps ETH and the no-bool token in one batch, spending only gas', async () => {
    const keyFile = join(tmpdir(), `relayer-${randomBytes(4).toString('hex')}.key`);
    writeFileSync(keyFile, `${relayerKey}\n`);
    const chainsFile = writeChains({
      forwarderFactory: factory,
      relayerKeyFile: keyFile,
      sweepIntervalMs: 100,
      sweepBatchSize: 10,
      sweepMaxWaitSeconds: 0,
    });
    await startService(chainsFile);
    const env = { DATABASE_URL: t.service.config.DATABASE_URL, CHAINS_CONFIG: chainsFile };
    const merchant = t.merchant.merchant_id;

    // Bad payout input: a clear error, exit 2, nothing written.
    const bad = await Promise.all(
      [
        ['0x1234', '20-byte hex address'],
        [checksumTypo(payout), 'checksum'],
        ['0x0000000000000000000000000000000000000000', 'zero address'],
      ].map(async ([address, message]) => ({
        message,
        r: await admin(['payout', 'set', '--merchant', merchant, '--address', address as string], env),
      })),
    );
    for (const { message, r } of bad) {
      expect(r.code, message).toBe(2);
      expect(r.stderr).toContain(message);
    }
    expect(await t.service.deps.db.selectFrom('merchant_payouts').selectAll().execute()).toEqual([]);

    // A contract payout (a Safe) is allowed, with a warning; then the merchant's own address.
    const asContract = await admin(['payout', 'set', '--merchant', merchant, '--address', usdt], env);
    expect(asContract.code, asContract.stderr).toBe(0);
    expect(asContract.stderr).toContain(`${usdt} is a contract on eth`);
    const set = await admin(['payout', 'set', '--merchant', merchant, '--address', payout, '--json'], env);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ payout, pays_with: { eth: 'forwarder' }, contract_on: [] });
    const shown = await admin(['payout', 'show', '--merchant', merchant, '--json'], env);
    expect(JSON.parse(shown.stdout)).toMatchObject({ payout, xpub_set: false, pays_with: { eth: 'forwarder' } });

    await until(
      async () => (await t.api('/api/v1/currencies')).json.data.map((c: { code: string }) => c.code),
      (c) => c.includes('ETH') && c.includes('USDTERC20'),
    );
    await until(
      async () => t.service.deps.sweepers[0]?.status().factoryProblem,
      (p) => p === null,
    );

    const eth = await create('ETH');
    const tok = await create('USDTERC20');
    for (const p of [eth, tok]) {
      expect(p.address).toBe(forwarderAddress(factory, payout, forwarderSalt(p.id)));
      expect((await forwarderRow(p.id)).payout).toBe(payout);
      expect(await anvil.public.getCode({ address: p.address })).toBeUndefined();
    }
    expect(eth.uri).toBe(`ethereum:${eth.address}@${ANVIL_CHAIN_ID}?value=${eth.units}`);
    expect(tok.uri).toBe(`ethereum:${usdt}@${ANVIL_CHAIN_ID}/transfer?address=${tok.address}&uint256=${tok.units}`);

    const payoutEthBefore = await anvil.public.getBalance({ address: payout });
    const payoutTokBefore = await tokenBalance(payout);
    await anvil.wallet.sendTransaction({ to: eth.address, value: eth.units, account: ANVIL_FUNDED, chain: null });
    await anvil.wallet.writeContract({
      address: usdt,
      abi: tokenAbi.abi,
      functionName: 'transfer',
      args: [tok.address, tok.units],
      account: ANVIL_FUNDED,
      chain: null,
    });
    await processed(await mine(CONFIRMATIONS));
    await until(
      () => paymentStatus(eth.id),
      (s) => s === 'finished',
    );
    await until(
      () => paymentStatus(tok.id),
      (s) => s === 'finished',
    );

    // No gas: payments are finished all the same; the sweep waits and says why.
    const sweeper = t.service.deps.sweepers[0];
    await until(
      async () => sweeper?.status(),
      (s) => s?.unswept.forwarders === 2 && (s.waiting ?? '').includes('fund it'),
    );
    expect(sweeper?.status().waiting).toContain(relayer);
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).toContain('forwarder_unswept{network="eth"} 2');
    expect(metrics).toContain(`forwarder_unswept_units{network="eth",asset="USDTERC20"} ${tok.units}`);
    expect(metrics).toContain('evm_relayer_balance_wei{network="eth"} 0');

    await anvil.wallet.sendTransaction({ to: relayer, value: parseEther('1'), account: ANVIL_FUNDED, chain: null });
    await mine();
    const pending = await until(
      () => t.service.deps.db.selectFrom('evm_sweeps').selectAll().execute(),
      (rows) => rows.length === 1,
    );
    expect(pending[0]).toMatchObject({ status: 'pending', forwarders: 2, sender: relayer, nonce: 0 });
    await mine();
    const [done] = await until(
      () => t.service.deps.db.selectFrom('evm_sweeps').selectAll().execute(),
      (rows) => rows[0]?.status === 'succeeded',
    );
    for (const p of [eth, tok]) {
      const f = await until(
        () => forwarderRow(p.id),
        (r) => r.sweep_tx !== null,
      );
      expect(f.sweep_tx).toBe(done?.tx_hash);
    }
    // Exactly what was paid reached the payout; the relayer paid exactly the fee and nothing else.
    expect((await anvil.public.getBalance({ address: payout })) - payoutEthBefore).toBe(eth.units);
    expect((await tokenBalance(payout)) - payoutTokBefore).toBe(tok.units);
    expect(parseEther('1') - (await anvil.public.getBalance({ address: relayer }))).toBe(BigInt(done?.fee_wei ?? -1));
    expect(await anvil.public.getBalance({ address: eth.address })).toBe(0n);
    expect(await tokenBalance(tok.address)).toBe(0n);
    // Sweeping changed no payment.
    expect(await paymentStatus(eth.id)).toBe('finished');
    expect(await paymentStatus(tok.id)).toBe('finished');

    // A later deposit to a swept (now deployed) forwarder is swept again.
    await anvil.wallet.writeContract({
      address: usdt,
      abi: tokenAbi.abi,
      functionName: 'transfer',
      args: [tok.address, 1234n],
      account: ANVIL_FUNDED,
      chain: null,
    });
    await processed(await mine(CONFIRMATIONS));
    await until(
      () => t.service.deps.db.selectFrom('evm_sweeps').selectAll().execute(),
      (rows) => rows.length === 2,
    );
    await mine();
    await until(
      () => t.service.deps.db.selectFrom('evm_sweeps').selectAll().orderBy('created_at').execute(),
      (rows) => rows[1]?.status === 'succeeded' && rows[1]?.forwarders === 1,
    );
    expect((await tokenBalance(payout)) - payoutTokBefore).toBe(tok.units + 1234n);
  }, 240_000);

  it('without a relayer, admin evm sweep --calldata prints one transaction any wallet can send, and the service notices the flush', async () => {
    await t.close();
    const noRelayer = writeChains({ forwarderFactory: factory, sweepIntervalMs: 100 });
    await startService(noRelayer);
    const env = { DATABASE_URL: t.service.config.DATABASE_URL, CHAINS_CONFIG: noRelayer };
    expect((await admin(['payout', 'set', '--merchant', t.merchant.merchant_id, '--address', payout], env)).code).toBe(
      0,
    );
    await until(
      async () => t.service.deps.sweepers[0]?.status().factoryProblem,
      (p) => p === null,
    );
    await until(
      async () => (await t.api('/api/v1/currencies')).json.data.map((c: { code: string }) => c.code),
      (c) => c.includes('USDTERC20'),
    );
    const a = await create('USDTERC20', 25);
    const b = await create('ETH', 20);
    await anvil.wallet.writeContract({
      address: usdt,
      abi: tokenAbi.abi,
      functionName: 'transfer',
      args: [a.address, a.units],
      account: ANVIL_FUNDED,
      chain: null,
    });
    await anvil.wallet.sendTransaction({ to: b.address, value: b.units, account: ANVIL_FUNDED, chain: null });
    await processed(await mine(CONFIRMATIONS));
    await until(
      () => paymentStatus(a.id),
      (s) => s === 'finished',
    );
    await until(
      () => paymentStatus(b.id),
      (s) => s === 'finished',
    );
    await until(
      async () => t.service.deps.sweepers[0]?.status(),
      (s) => s?.unswept.forwarders === 2 && s.relayer === null,
    );

    const printed = await admin(
      ['evm', 'sweep', '--merchant', t.merchant.merchant_id, '--network', 'eth', '--calldata', '--json'],
      env,
    );
    expect(printed.code, printed.stderr).toBe(0);
    const tx = JSON.parse(printed.stdout);
    expect(tx).toMatchObject({ chain_id: ANVIL_CHAIN_ID, to: factory, value: '0', forwarders: 2 });
    expect(tx.units).toEqual({ USDTERC20: a.units.toString(), ETH: b.units.toString() });

    const tokBefore = await tokenBalance(payout);
    const ethBefore = await anvil.public.getBalance({ address: payout });
    // Sent by an account that has nothing to do with the merchant: the funds still go only to the payout.
    const hash = await anvil.wallet.sendTransaction({ to: tx.to, data: tx.data, account: ANVIL_FUNDED, chain: null });
    expect((await minedReceipt(anvil, hash)).status).toBe('success');
    expect((await tokenBalance(payout)) - tokBefore).toBe(a.units);
    expect((await anvil.public.getBalance({ address: payout })) - ethBefore).toBe(b.units);
    for (const p of [a, b]) {
      const swept = await until(
        () => forwarderRow(p.id),
        (r) => r.sweep_tx !== null,
      );
      expect(swept.sweep_tx).toBe(hash);
    }
    expect(await t.service.deps.db.selectFrom('evm_sweeps').selectAll().execute()).toEqual([]);
    const nothing = await admin(
      ['evm', 'sweep', '--merchant', t.merchant.merchant_id, '--network', 'eth', '--calldata'],
      env,
    );
    expect(nothing.stdout).toContain('Nothing to sweep.');
  }, 240_000);
});
