import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { ManualClock } from '../../../clock.js';
import type { Logger } from '../../../log.js';
import { toUnits } from '../../../money/decimal.js';
import { startRatesServer } from '../../evm/testing/rates-server.js';
import { setViewKey } from '../monero-keys.js';
import { type Monerod, startMonerod } from './monerod.js';
import { randomWalletKeys } from './wallet-keys.js';

/*
 * The live Monero suites' shared set-up: one real `monerod --regtest --offline` per suite file (200 blocks mined first
 * take ~15 s), a full monero-wallet-rpc that mines and pays as the customer, and per test a service over HTTP in live
 * mode on a fresh store whose merchant registered a fresh primary address and view key. The service reads monerod only;
 * a view-only monero-wallet-rpc made from the same address and view key is the independent check of what the merchant's
 * own wallet sees. Each suite file calls setUpMonerod() once; `node`, `rates` and `configFile` are live bindings.
 */

export const CONFIRMATIONS = 2;
/** $30 at $150: 0.2 XMR. */
const PRICES = { monero: 150 };

export let node: Monerod;
/** Kept so afterAll stops the daemons even when beforeAll timed out while they were still starting. */
let starting: Promise<Monerod> | undefined;
export let rates: { url: string; close(): Promise<void> };
export let configFile: string;

/** Starts monerod and the rates server before the file's tests and stops them after. */
export function setUpMonerod(): void {
  beforeAll(async () => {
    starting = startMonerod();
    node = await starting;
    rates = await startRatesServer(PRICES);
    configFile = join(tmpdir(), `chains-xmr-${randomBytes(4).toString('hex')}.json`);
    const xmr = { rpcUrl: node.url, confirmations: CONFIRMATIONS, pollIntervalMs: 100, timeoutMs: 3000 };
    writeFileSync(configFile, JSON.stringify({ networks: { xmr } }));
  }, 300_000);

  afterAll(async () => {
    await rates?.close();
    await starting?.then(
      (n) => n.stop(),
      () => undefined,
    );
  }, 300_000);
}

export interface Live {
  t: TestService;
  clock: ManualClock;
  logs: { level: string; msg: string; fields?: Record<string, unknown> }[];
  keys: ReturnType<typeof randomWalletKeys>;
  close(): Promise<void>;
}

export async function live(env: Record<string, string> = {}, clock = new ManualClock(Date.now())): Promise<Live> {
  const logs: Live['logs'] = [];
  const logger: Logger = {
    debug: () => undefined,
    info: (msg, fields) => logs.push({ level: 'info', msg, ...(fields ? { fields } : {}) }),
    warn: (msg, fields) => logs.push({ level: 'warn', msg, ...(fields ? { fields } : {}) }),
    error: (msg, fields) => logs.push({ level: 'error', msg, ...(fields ? { fields } : {}) }),
  };
  const t = await startTestService({
    mode: 'live',
    start: true,
    clock,
    env: {
      CHAINS_CONFIG: configFile,
      RATES_BASE_URL: rates.url,
      RATES_STALE_SECONDS: '86400',
      EXPIRY_SWEEP_MS: '50',
      ...env,
    },
    overrides: { logger },
  });
  const keys = randomWalletKeys();
  const set = await setViewKey(t.service.deps.db, clock, t.merchant.merchant_id, keys.address, keys.viewKey);
  expect(set.ok, JSON.stringify(set)).toBe(true);
  await until(
    async () => codes(await t.api('/api/v1/currencies')),
    (c) => c.includes('XMR'),
  );
  return { t, clock, logs, keys, close: () => t.close() };
}

export async function withLive(body: (l: Live) => Promise<void>): Promise<void> {
  const l = await live();
  try {
    await body(l);
  } finally {
    await l.close();
  }
}

export function codes(r: { json: { data?: { code: string }[] } }): string[] {
  return (r.json.data ?? []).map((c) => c.code);
}

export async function create(s: TestService, amount = 30) {
  const r = await s.api('/api/v1/payments', { body: { amount, currency: 'XMR', email: 'alice@example.com' } });
  expect(r.status, r.text).toBe(201);
  const d = r.json.data;
  const row = await s.service.deps.db
    .selectFrom('payments')
    .select(['address_index', 'valid_until'])
    .where('id', '=', d.payment.payment_id)
    .executeTakeFirstOrThrow();
  const amountText = rawNumber(r.text, 'pay_amount');
  return {
    id: d.payment.payment_id as string,
    address: d.blockchain.pay_address as string,
    uri: d.qr.payment_uri as string,
    amount: amountText,
    units: toUnits(amountText, 12) as bigint,
    index: Number(row.address_index),
    validUntil: Number(row.valid_until),
  };
}

export const status = (s: TestService, id: string) => paymentStatus(s, id);
export const waitStatus = (s: TestService, id: string, want: string, ms = 30_000) =>
  waitPaymentStatus(s, id, want, undefined, ms);
export const deposits = paymentDeposits;
export const events = paymentEvents;
export const processed = (s: TestService, height: number) => watcherReached(s, 'xmr', height);

/** Mines until `txid` is in a block, then enough blocks for CONFIRMATIONS; returns the deposit's height. */
export async function confirm(s: TestService, txid: string): Promise<number> {
  const height = await node.mineUntilIn(txid);
  await node.mine(CONFIRMATIONS - 1);
  await processed(s, height + CONFIRMATIONS - 1);
  return height;
}

export async function viewKeyOf(t: TestService): Promise<string> {
  const row = await t.service.deps.db
    .selectFrom('merchant_xpubs')
    .select('view_key')
    .where('merchant_id', '=', t.merchant.merchant_id)
    .where('chain', '=', 'xmr')
    .executeTakeFirstOrThrow();
  return row.view_key as string;
}
