import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HDKey } from '@scure/bip32';
import type { Address, Hex } from 'viem';
import { afterAll, beforeAll, expect } from 'vitest';
import { startTestService, type TestService } from '../../../../server/testing/harness.js';
import {
  paymentDeposits,
  paymentEvents,
  paymentStatus,
  waitPaymentStatus,
  watcherReached,
} from '../../../../server/testing/payment-probes.js';
import { rawNumber, until } from '../../../../server/testing/until.js';
import { setXpub } from '../../../addresses/xpubs.js';
import { ManualClock } from '../../../clock.js';
import type { Logger } from '../../../log.js';
import {
  ANVIL_CHAIN_ID,
  ANVIL_FUNDED,
  type Anvil,
  type CompiledContract,
  compileTestToken,
  deployTestToken,
  startAnvil,
} from './anvil.js';
import { startRatesServer } from './rates-server.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

/*
 * The live EVM suites' shared set-up: a real anvil node, ERC-20 test tokens compiled from contracts/test/TestTokens.sol,
 * the real service over HTTP in live mode with CHAINS_CONFIG, and a live merchant whose xpub comes from a random wallet
 * seed. The node mines only when a test says so, so every confirmation count in the suites is exact. Each suite file
 * calls setUpLiveEvm() once and reads the bindings below (live ES module bindings, assigned in its beforeAll).
 */

export let anvil: Anvil;
export let proxy: TcpProxy;
export let rates: { url: string; close(): Promise<void> };
export let token: CompiledContract;
export let usdt: Address;
export let usdc: Address;
export let stranger: Address;
export let t: TestService;
export let configFile: string;
export const clock = new ManualClock(Date.now());
export const logs: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
export const logger: Logger = {
  debug: () => undefined,
  info: (msg, fields) => logs.push({ level: 'info', msg, ...(fields ? { fields } : {}) }),
  warn: (msg, fields) => logs.push({ level: 'warn', msg, ...(fields ? { fields } : {}) }),
  error: (msg, fields) => logs.push({ level: 'error', msg, ...(fields ? { fields } : {}) }),
};
export const wallet = HDKey.fromMasterSeed(randomBytes(32));
export const accountXpub = wallet.derive("m/44'/60'/0'").publicExtendedKey;
export const CONFIRMATIONS = 3;
export const RPC_KEY = `k${randomBytes(8).toString('hex')}`;

export function env(): Record<string, string> {
  // Tests move the service's clock past payment windows (half an hour and more): prices fetched at real time must
  // not turn stale on that clock.
  return {
    CHAINS_CONFIG: configFile,
    RATES_BASE_URL: rates.url,
    RATES_STALE_SECONDS: '86400',
    EXPIRY_SWEEP_MS: '50',
  };
}

export async function startLive(extraEnv: Record<string, string> = {}, registerXpub = true): Promise<TestService> {
  const s = await startTestService({
    mode: 'live',
    start: true,
    clock,
    env: { ...env(), ...extraEnv },
    overrides: { logger },
  });
  if (registerXpub) {
    const r = await setXpub(s.service.deps.db, clock, s.merchant.merchant_id, 'evm', accountXpub);
    expect(r.ok).toBe(true);
  }
  await until(
    async () => codes(await s.api('/api/v1/currencies')),
    (c) => c.includes('ETH'),
    20_000,
  );
  return s;
}

/** Starts anvil, the tokens, the proxy, the rates server and the service before the file's tests; stops them after. */
export function setUpLiveEvm(): void {
  beforeAll(async () => {
    anvil = await startAnvil();
    token = compileTestToken();
    usdt = await deployTestToken(anvil, token, 'USDT');
    usdc = await deployTestToken(anvil, token, 'USDC');
    stranger = await deployTestToken(anvil, token, 'XXX');
    proxy = await startTcpProxy(anvil.port);
    rates = await startRatesServer({ ethereum: 3000, tether: 1, 'usd-coin': 1 });
    configFile = join(tmpdir(), `chains-${randomBytes(4).toString('hex')}.json`);
    writeFileSync(
      configFile,
      JSON.stringify({
        networks: {
          eth: {
            // A provider-style key in the URL: it must never appear in a log line.
            rpcUrl: `${proxy.url}/?apikey=${RPC_KEY}`,
            chainId: ANVIL_CHAIN_ID,
            confirmations: CONFIRMATIONS,
            pollIntervalMs: 100,
            timeoutMs: 1000,
            tokens: { USDTERC20: usdt, USDCERC20: usdc },
          },
          // Configured but nothing listens there: its assets must not be offered.
          base: { rpcUrl: 'http://127.0.0.1:1', chainId: 8453, confirmations: 1, pollIntervalMs: 1000, timeoutMs: 500 },
        },
      }),
    );
    t = await startLive();
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await rates?.close();
    await anvil?.stop();
  });
}

export function codes(r: { json: { data?: { code: string }[] } }): string[] {
  return (r.json.data ?? []).map((c) => c.code);
}

export function units(text: string, decimals: number): bigint {
  const [i = '0', f = ''] = text.split('.');
  return BigInt(i + f.padEnd(decimals, '0'));
}

export interface Created {
  id: string;
  address: Address;
  uri: string;
  units: bigint;
  decimals: number;
  // biome-ignore lint/suspicious/noExplicitAny: API JSON
  data: any;
}

export async function create(currency: string, amount = 30, s: TestService = t, key?: string): Promise<Created> {
  const r = await s.api('/api/v1/payments', {
    body: { amount, currency, email: 'alice@example.com' },
    ...(key ? { key } : {}),
  });
  expect(r.status, r.text).toBe(201);
  const d = r.json.data;
  const decimals = d.blockchain.network_precision as number;
  return {
    id: d.payment.payment_id,
    address: d.blockchain.pay_address,
    uri: d.qr.payment_uri,
    units: units(rawNumber(r.text, 'pay_amount'), decimals),
    decimals,
    data: d,
  };
}

export const status = (id: string, s: TestService = t, key?: string) => paymentStatus(s, id, key);
export const waitStatus = (id: string, want: string, s: TestService = t, key?: string) =>
  waitPaymentStatus(s, id, want, key);

export async function sendEth(to: Address, wei: bigint): Promise<Hex> {
  return anvil.wallet.sendTransaction({ to, value: wei, account: ANVIL_FUNDED, chain: null });
}

export async function sendToken(contract: Address, to: Address, amount: bigint): Promise<Hex> {
  return anvil.wallet.writeContract({
    address: contract,
    abi: token.abi,
    functionName: 'transfer',
    args: [to, amount],
    account: ANVIL_FUNDED,
    chain: null,
  });
}

/** Mines `n` blocks and returns the new height. */
export async function mine(n = 1): Promise<number> {
  await anvil.test.mine({ blocks: n });
  return Number(await anvil.public.getBlockNumber());
}

/** Waits until the service's watcher has processed `height` on live:eth. */
export const processed = (height: number, s: TestService = t) => watcherReached(s, 'eth', height);
export const eventStatuses = (id: string, s: TestService = t) => paymentEvents(s, id);
export const depositsOf = (id: string, s: TestService = t) => paymentDeposits(s, id);
