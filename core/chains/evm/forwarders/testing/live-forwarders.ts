import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect } from 'vitest';
import { compileNoBoolToken } from '../../../../../contracts/test/test-tokens.js';
import { startTestService, type TestService } from '../../../../../server/testing/harness.js';
import { watcherReached } from '../../../../../server/testing/payment-probes.js';
import { rawNumber } from '../../../../../server/testing/until.js';
import { ManualClock } from '../../../../clock.js';
import { ANVIL_CHAIN_ID, type Anvil, deploy, deployForwarderFactory, startAnvil } from '../../testing/anvil.js';
import { startRatesServer } from '../../testing/rates-server.js';

/*
 * The forwarder suites' shared set-up on a real anvil: a USDT-like token with no bool return, the rates server, a
 * payout address and a relayer key, the admin CLI run in its own process, and the queries the suites read. Each suite
 * file calls setUpForwarders() once; `anvil`, `usdt`, `factory` and `t` are live bindings a suite may assign.
 */

export let anvil: Anvil;
export let rates: { url: string; close(): Promise<void> };
export let usdt: Address;
export const tokenAbi = compileNoBoolToken();
export let factory: Address;
export let t: TestService;
export const clock = new ManualClock(Date.now());
export const payout = privateKeyToAccount(generatePrivateKey()).address;
export const relayerKey = generatePrivateKey();
export const relayer = privateKeyToAccount(relayerKey).address;
export const CONFIRMATIONS = 2;

export function network(extra: Record<string, unknown> = {}) {
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

export function writeChains(extra: Record<string, unknown> = {}): string {
  const file = join(tmpdir(), `chains-${randomBytes(4).toString('hex')}.json`);
  writeFileSync(file, JSON.stringify({ networks: { eth: network(extra) } }));
  return file;
}

/** Runs the real admin CLI in its own process; mines blocks while it runs (the node mines only when asked). */
export async function admin(args: string[], env: Record<string, string>, stdin = '') {
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

export async function mine(n = 1): Promise<number> {
  await anvil.test.mine({ blocks: n });
  return Number(await anvil.public.getBlockNumber());
}

export const processed = (height: number) => watcherReached(t, 'eth', height, 60_000);

export function units(text: string, decimals: number): bigint {
  const [i = '0', f = ''] = text.split('.');
  return BigInt(i + f.padEnd(decimals, '0'));
}

export async function create(currency: string, amount = 30) {
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

export async function tokenBalance(of: Address): Promise<bigint> {
  return (await anvil.public.readContract({
    address: usdt,
    abi: tokenAbi.abi,
    functionName: 'balanceOf',
    args: [of],
  })) as bigint;
}

export async function forwarderRow(paymentId: string) {
  return t.service.deps.db
    .selectFrom('evm_forwarders')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .executeTakeFirstOrThrow();
}

export async function paymentStatus(id: string): Promise<string> {
  const r = await t.api(`/api/v1/payments/${id}`);
  return r.json.data.payment_status;
}

/** Starts anvil, the token and the rates server before the file's tests (and deploys the factory when asked); stops them after. */
export function setUpForwarders(withFactory = false): void {
  beforeAll(async () => {
    anvil = await startAnvil();
    usdt = await deploy(anvil, tokenAbi, ['Tether USD', 'USDT', 10n ** 15n]);
    rates = await startRatesServer({ ethereum: 3000, tether: 1, 'usd-coin': 1 });
    if (withFactory) factory = await deployForwarderFactory(anvil);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await rates?.close();
    await anvil?.stop();
  });
}

/** Starts the live service on CHAINS_CONFIG `chains` (a fresh store) and makes it the one the helpers above talk to. */
export async function startService(chains: string): Promise<TestService> {
  t = await startTestService({
    mode: 'live',
    start: true,
    clock,
    env: { CHAINS_CONFIG: chains, RATES_BASE_URL: rates.url, RATES_STALE_SECONDS: '86400' },
  });
  return t;
}
