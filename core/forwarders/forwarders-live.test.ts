import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Address, getAddress, getContractAddress, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileNoBoolToken } from '../../contracts/test/test-tokens.js';
import { startTestService, type TestService } from '../../server/testing/harness.js';
import { rawNumber, until } from '../../server/testing/until.js';
import {
  ANVIL_CHAIN_ID,
  ANVIL_FUNDED,
  type Anvil,
  deploy,
  minedReceipt,
  startAnvil,
} from '../chains/evm/testing/anvil.js';
import { startRatesServer } from '../chains/evm/testing/rates-server.js';
import { ManualClock } from '../clock.js';
import { forwarderAddress, forwarderSalt } from './address.js';

/*
 * Forwarders end to end on a real anvil: the factory deployed by the admin CLI, a live merchant with a payout address
 * set by the CLI, ETH and a USDT-like token with no bool return paid to forwarder addresses, and the relayer sweeping
 * them in one batch: first without gas (payments finish, the sweep waits and says so), then funded.
 */

let anvil: Anvil;
let rates: { url: string; close(): Promise<void> };
let usdt: Address;
const tokenAbi = compileNoBoolToken();
let factory: Address;
let t: TestService;
let chainsFile: string;
const clock = new ManualClock(Date.now());
const payout = privateKeyToAccount(generatePrivateKey()).address;
const relayerKey = generatePrivateKey();
const relayer = privateKeyToAccount(relayerKey).address;
const CONFIRMATIONS = 2;

function network(extra: Record<string, unknown> = {}) {
  return {
    rpcUrl: anvil.url,
    chainId: ANVIL_CHAIN_ID,
    confirmations: CONFIRMATIONS,
    pollIntervalMs: 100,
    timeoutMs: 2000,
    tokens: { USDTERC20: usdt, USDCERC20: usdt.replace(/.$/, (c) => (c === '0' ? '1' : '0')) },
    ...extra,
  };
}

function writeChains(extra: Record<string, unknown> = {}): string {
  const file = join(tmpdir(), `chains-${randomBytes(4).toString('hex')}.json`);
  writeFileSync(file, JSON.stringify({ networks: { eth: network(extra) } }));
  return file;
}

/** Runs the real admin CLI in its own process; mines blocks while it runs (the node mines only when asked). */
async function admin(args: string[], env: Record<string, string>, stdin = '') {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/admin-cli.ts', ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  child.stdin.end(stdin);
  // Mines only when the CLI has sent a transaction: idle blocks would only give the watcher work to catch up on.
  const miner = setInterval(async () => {
    const waiting = await anvil.public.getBlockTransactionCount({ blockTag: 'pending' }).catch(() => 0);
    if (waiting > 0) await anvil.test.mine({ blocks: 1 }).catch(() => undefined);
  }, 300);
  const code = await new Promise<number>((r) => child.once('exit', (c) => r(c ?? 1)));
  clearInterval(miner);
  return { code, stdout, stderr };
}

async function mine(n = 1): Promise<number> {
  await anvil.test.mine({ blocks: n });
  return Number(await anvil.public.getBlockNumber());
}

async function processed(height: number) {
  await until(
    () => t.service.deps.chains.headOf('live:eth'),
    (h) => h !== null && h >= height,
    60_000,
  );
}

function units(text: string, decimals: number): bigint {
  const [i = '0', f = ''] = text.split('.');
  return BigInt(i + f.padEnd(decimals, '0'));
}

async function create(currency: string, amount = 30) {
  const r = await t.api('/api/v1/payments', { body: { amount, currency, email: 'alice@example.com' } });
  expect(r.status, r.text).toBe(201);
  const d = r.json.data;
  return {
    id: d.payment.payment_id as string,
    address: d.blockchain.pay_address as Address,
    uri: d.qr.payment_uri as string,
    units: units(rawNumber(r.text, 'pay_amount'), d.blockchain.network_precision),
  };
}

async function tokenBalance(of: Address): Promise<bigint> {
  return (await anvil.public.readContract({
    address: usdt,
    abi: tokenAbi.abi,
    functionName: 'balanceOf',
    args: [of],
  })) as bigint;
}

async function forwarderRow(paymentId: string) {
  return t.service.deps.db
    .selectFrom('evm_forwarders')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .executeTakeFirstOrThrow();
}

async function paymentStatus(id: string): Promise<string> {
  const r = await t.api(`/api/v1/payments/${id}`);
  return r.json.data.payment_status;
}

beforeAll(async () => {
  anvil = await startAnvil();
  usdt = await deploy(anvil, tokenAbi, ['Tether USD', 'USDT', 10n ** 15n]);
  rates = await startRatesServer({ ethereum: 3000, tether: 1, 'usd-coin': 1 });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await rates?.close();
  await anvil?.stop();
});

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
    factory = getAddress(out.factory);
    // Nonce 0 of a fresh key: the address any chain gets from the same key.
    expect(factory).toBe(getContractAddress({ from, nonce: 0n }));
    expect(await anvil.public.getCode({ address: factory })).toMatch(/^0x[0-9a-f]{100,}$/);
  }, 120_000);

  it('a live merchant with a payout address gets a forwarder for every EVM payment; the relayer without gas waits and says so; funded, it sweeps ETH and the no-bool token in one batch, spending only gas', async () => {
    const keyFile = join(tmpdir(), `relayer-${randomBytes(4).toString('hex')}.key`);
    writeFileSync(keyFile, `${relayerKey}\n`);
    chainsFile = writeChains({
      forwarderFactory: factory,
      relayerKeyFile: keyFile,
      sweepIntervalMs: 100,
      sweepBatchSize: 10,
      sweepMaxWaitSeconds: 0,
    });
    t = await startTestService({
      mode: 'live',
      start: true,
      clock,
      env: { CHAINS_CONFIG: chainsFile, RATES_BASE_URL: rates.url, RATES_STALE_SECONDS: '86400' },
    });
    const env = { DATABASE_URL: t.service.config.DATABASE_URL, CHAINS_CONFIG: chainsFile };
    const merchant = t.merchant.merchant_id;

    // Bad payout input: a clear error, exit 2, nothing written.
    const bad = await Promise.all(
      [
        ['0x1234', '20-byte hex address'],
        [flipFirstLetter(payout), 'checksum'],
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
    t = await startTestService({
      mode: 'live',
      start: true,
      clock,
      env: { CHAINS_CONFIG: noRelayer, RATES_BASE_URL: rates.url, RATES_STALE_SECONDS: '86400' },
    });
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

  it('a factory address with no code: payments of merchants with a payout are refused with a clear message, nothing written', async () => {
    await t.close();
    const empty = writeChains({ forwarderFactory: '0x000000000000000000000000000000000000bEEF', sweepIntervalMs: 100 });
    t = await startTestService({
      mode: 'live',
      start: true,
      clock,
      env: { CHAINS_CONFIG: empty, RATES_BASE_URL: rates.url, RATES_STALE_SECONDS: '86400' },
    });
    const { setPayout } = await import('./payouts.js');
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

/** The checksummed address with one letter's case flipped: still an address, but its EIP-55 checksum is wrong. */
function flipFirstLetter(a: Address): string {
  const i = a.slice(2).search(/[a-fA-F]/) + 2;
  const c = a[i] as string;
  return a.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + a.slice(i + 1);
}
