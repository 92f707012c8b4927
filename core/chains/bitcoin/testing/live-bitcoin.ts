import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HDKey } from '@scure/bip32';
import { expect } from 'vitest';
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
import { startRatesServer } from '../../evm/testing/rates-server.js';
import { type Litecoind, startLitecoind } from './litecoind.js';

/*
 * The live Bitcoin-family suites' shared set-up: every test gets its own real `litecoind -regtest` (free port, fresh
 * data directory), its own service over HTTP in live mode on a fresh store with CHAINS_CONFIG naming that node, and a
 * live merchant whose keys come from random seeds. LTC is paid natively. BTC and DOGE share the code path and are
 * watched on the same node: outputs are matched by script, so paying the Litecoin encoding of a BTC (P2WPKH) or DOGE
 * (P2PKH) payment address pays that payment. The node mines only when a test says so, so confirmation counts are
 * exact. Each test runs its body through withLive(), which starts the node and service and always tears both down.
 */

export const CONFIRMATIONS = 2;
/** BIP32 version bytes of tpub/tprv: regtest keys of every chain (SLIP-0132). */
export const TEST_VERSIONS = { private: 0x04358394, public: 0x043587cf };
const PRICES = { litecoin: 100, bitcoin: 50_000, dogecoin: 10 };

export interface Live {
  node: Litecoind;
  t: TestService;
  clock: ManualClock;
  logs: { level: string; msg: string; fields?: Record<string, unknown> }[];
  /** The merchant's wallets, one per chain, as the merchant's own wallet software would hold them. */
  wallets: { ltc: HDKey; btc: HDKey; doge: HDKey };
  configFile: string;
  start(extraEnv?: Record<string, string>): Promise<TestService>;
  close(): Promise<void>;
}

export async function live(
  opts: { env?: Record<string, string>; chains?: ('ltc' | 'btc' | 'doge')[] } = {},
): Promise<Live> {
  const node = await startLitecoind();
  const rates = await startRatesServer(PRICES);
  const chains = opts.chains ?? ['ltc'];
  const configFile = join(tmpdir(), `chains-${randomBytes(4).toString('hex')}.json`);
  const entry = {
    rpcUrl: node.url,
    chain: 'regtest',
    confirmations: CONFIRMATIONS,
    pollIntervalMs: 100,
    timeoutMs: 2000,
  };
  const networks: Record<string, unknown> = {};
  // LTC signs in with the node's cookie (re-read when the node restarts with a new one), the others with a password.
  for (const c of chains)
    networks[c] =
      c === 'ltc'
        ? { ...entry, cookieFile: node.cookieFile }
        : { ...entry, rpcUser: node.user, rpcPassword: node.password };
  writeFileSync(configFile, JSON.stringify({ networks }));
  const clock = new ManualClock(Date.now());
  const logs: Live['logs'] = [];
  const logger: Logger = {
    debug: () => undefined,
    info: (msg, fields) => logs.push({ level: 'info', msg, ...(fields ? { fields } : {}) }),
    warn: (msg, fields) => logs.push({ level: 'warn', msg, ...(fields ? { fields } : {}) }),
    error: (msg, fields) => logs.push({ level: 'error', msg, ...(fields ? { fields } : {}) }),
  };
  const wallets = {
    ltc: HDKey.fromMasterSeed(randomBytes(32), TEST_VERSIONS),
    btc: HDKey.fromMasterSeed(randomBytes(32), TEST_VERSIONS),
    doge: HDKey.fromMasterSeed(randomBytes(32), TEST_VERSIONS),
  };
  const env = {
    CHAINS_CONFIG: configFile,
    RATES_BASE_URL: rates.url,
    // Tests move the service's clock past payment windows: prices fetched at real time must not turn stale.
    RATES_STALE_SECONDS: '86400',
    EXPIRY_SWEEP_MS: '50',
    ...opts.env,
  };
  const services: TestService[] = [];
  const l: Live = {
    node,
    clock,
    logs,
    wallets,
    configFile,
    t: undefined as unknown as TestService,
    async start(extraEnv = {}) {
      const s = await startTestService({
        mode: 'live',
        start: true,
        clock,
        env: { ...env, ...extraEnv },
        overrides: { logger },
      });
      services.push(s);
      return s;
    },
    async close() {
      for (const s of services) await s.close().catch(() => undefined);
      await rates.close();
      await node.stop();
    },
  };
  try {
    l.t = await l.start();
    for (const c of chains) {
      const account = wallets[c].derive(c === 'doge' ? "m/44'/1'/0'" : "m/84'/1'/0'").publicExtendedKey;
      const r = await setXpub(l.t.service.deps.db, clock, l.t.merchant.merchant_id, c, account, 'regtest');
      expect(r.ok, JSON.stringify(r)).toBe(true);
    }
    await until(
      async () => codes(await l.t.api('/api/v1/currencies')),
      (listed) => chains.every((c) => listed.includes(c.toUpperCase())),
    );
  } catch (e) {
    await l.close();
    throw e;
  }
  return l;
}

/** Runs `body` on its own node and service, and always tears both down. */
export async function withLive(body: (l: Live) => Promise<void>, opts?: Parameters<typeof live>[0]): Promise<void> {
  const l = await live(opts);
  try {
    await body(l);
  } finally {
    await l.close();
  }
}

export function codes(r: { json: { data?: { code: string }[] } }): string[] {
  return (r.json.data ?? []).map((c) => c.code);
}

export interface Created {
  id: string;
  address: string;
  uri: string;
  payload: string;
  /** pay_amount as its exact digits. */
  amount: string;
  index: number;
}

export async function create(s: TestService, currency = 'LTC', amount = 30, key?: string): Promise<Created> {
  const r = await s.api('/api/v1/payments', {
    body: { amount, currency, email: 'alice@example.com' },
    ...(key ? { key } : {}),
  });
  expect(r.status, r.text).toBe(201);
  const d = r.json.data;
  const row = await s.service.deps.db
    .selectFrom('payments')
    .select('address_index')
    .where('id', '=', d.payment.payment_id)
    .executeTakeFirstOrThrow();
  return {
    id: d.payment.payment_id,
    address: d.blockchain.pay_address,
    uri: d.qr.payment_uri,
    payload: d.qr.payload,
    amount: rawNumber(r.text, 'pay_amount'),
    index: Number(row.address_index),
  };
}

export const status = (s: TestService, id: string, key?: string) => paymentStatus(s, id, key);
export const waitStatus = (s: TestService, id: string, want: string, key?: string) =>
  waitPaymentStatus(s, id, want, key);
export const deposits = paymentDeposits;
export const events = paymentEvents;

/** Waits until the service's watcher of `network` has processed `height`. */
export const processed = (s: TestService, height: number, network = 'ltc') => watcherReached(s, network, height);

/** Waits until the watcher's mempool pass has recorded a deposit of `txid` to the payment. */
export async function seen(s: TestService, id: string, txid: string) {
  await until(
    () => deposits(s, id),
    (ds) => ds.some((d) => d.txid === txid && d.removed === 0),
  );
}
