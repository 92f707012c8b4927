import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HDKey } from '@scure/bip32';
import { type Address, bytesToHex, getAddress, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../../server/testing/harness.js';
import { freshStoreUrl } from '../../../server/testing/store.js';
import { rawNumber, until } from '../../../server/testing/until.js';
import { setXpub } from '../../addresses/xpubs.js';
import { ManualClock } from '../../clock.js';
import type { Logger } from '../../log.js';
import { createMerchant } from '../../merchants/merchants.js';
import {
  ANVIL_CHAIN_ID,
  ANVIL_FUNDED,
  type Anvil,
  type CompiledContract,
  compileTestToken,
  deployTestToken,
  startAnvil,
} from './testing/anvil.js';
import { startRatesServer } from './testing/rates-server.js';
import { startTcpProxy, type TcpProxy } from './testing/tcp-proxy.js';

/*
 * Live payments end to end: a real anvil node, ERC-20 test tokens compiled from contracts/test/TestTokens.sol, the real service
 * over HTTP in live mode with CHAINS_CONFIG, and a live merchant whose xpub comes from a random wallet seed.
 * The node mines only when a test says so, so every confirmation count below is exact.
 */

let anvil: Anvil;
let proxy: TcpProxy;
let rates: { url: string; close(): Promise<void> };
let token: CompiledContract;
let usdt: Address;
let usdc: Address;
let stranger: Address;
let t: TestService;
let configFile: string;
const clock = new ManualClock(Date.now());
const logs: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
const logger: Logger = {
  debug: () => undefined,
  info: (msg, fields) => logs.push({ level: 'info', msg, ...(fields ? { fields } : {}) }),
  warn: (msg, fields) => logs.push({ level: 'warn', msg, ...(fields ? { fields } : {}) }),
  error: (msg, fields) => logs.push({ level: 'error', msg, ...(fields ? { fields } : {}) }),
};
const wallet = HDKey.fromMasterSeed(randomBytes(32));
const accountXpub = wallet.derive("m/44'/60'/0'").publicExtendedKey;
const CONFIRMATIONS = 3;
const RPC_KEY = `k${randomBytes(8).toString('hex')}`;

function env(): Record<string, string> {
  // Tests move the service's clock past payment windows (half an hour and more): prices fetched at real time must
  // not turn stale on that clock.
  return {
    CHAINS_CONFIG: configFile,
    RATES_BASE_URL: rates.url,
    RATES_STALE_SECONDS: '86400',
    EXPIRY_SWEEP_MS: '50',
  };
}

async function startLive(extraEnv: Record<string, string> = {}, registerXpub = true): Promise<TestService> {
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

// ---- helpers -------------------------------------------------------------------------------------------------

function codes(r: { json: { data?: { code: string }[] } }): string[] {
  return (r.json.data ?? []).map((c) => c.code);
}

function units(text: string, decimals: number): bigint {
  const [i = '0', f = ''] = text.split('.');
  return BigInt(i + f.padEnd(decimals, '0'));
}

interface Created {
  id: string;
  address: Address;
  uri: string;
  units: bigint;
  decimals: number;
  // biome-ignore lint/suspicious/noExplicitAny: API JSON
  data: any;
}

async function create(currency: string, amount = 30, s: TestService = t, key?: string): Promise<Created> {
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

async function status(id: string, s: TestService = t, key?: string) {
  const r = await s.api(`/api/v1/payments/${id}`, key ? { key } : {});
  expect(r.status, r.text).toBe(200);
  return { ...r.json.data, paid: rawNumber(r.text, 'actually_paid') } as {
    payment_status: string;
    status_detail: string;
    paid: string;
    confirmed_at: string | null;
    sequence: number;
  };
}

async function waitStatus(id: string, want: string, s: TestService = t, key?: string) {
  return until(
    () => status(id, s, key),
    (v) => v.payment_status === want,
  );
}

async function sendEth(to: Address, wei: bigint): Promise<Hex> {
  return anvil.wallet.sendTransaction({ to, value: wei, account: ANVIL_FUNDED, chain: null });
}

async function sendToken(contract: Address, to: Address, amount: bigint): Promise<Hex> {
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
async function mine(n = 1): Promise<number> {
  await anvil.test.mine({ blocks: n });
  return Number(await anvil.public.getBlockNumber());
}

/** Waits until the service's watcher has processed `height` on live:eth. */
async function processed(height: number, s: TestService = t) {
  await until(
    () => s.service.deps.chains.headOf('live:eth'),
    (h) => h !== null && h >= height,
  );
}

async function eventStatuses(id: string, s: TestService = t) {
  const rows = await s.service.deps.db
    .selectFrom('payment_events')
    .select(['status', 'sequence'])
    .where('payment_id', '=', id)
    .orderBy('sequence')
    .execute();
  return rows.map((r) => r.status);
}

async function depositsOf(id: string, s: TestService = t) {
  return s.service.deps.db
    .selectFrom('deposits')
    .selectAll()
    .where('payment_id', '=', id)
    .orderBy('first_seen_at')
    .execute();
}

/**
 * EIP-681, parsed from the grammar in the EIP and nothing of ours: `ethereum:[pay-]ADDRESS[@CHAIN][/FUNCTION][?PARAMS]`,
 * numbers possibly in scientific notation (`2.014e18`).
 */
function parseEip681(uri: string) {
  const m = /^ethereum:(?:pay-)?(0x[0-9a-fA-F]{40})(?:@([0-9]+))?(?:\/([A-Za-z_$][\w$]*))?(?:\?(.*))?$/.exec(uri);
  if (!m) throw new Error(`not EIP-681: ${uri}`);
  const params = new Map<string, string>();
  for (const part of (m[4] ?? '').split('&').filter(Boolean)) {
    const [k, v = ''] = part.split('=');
    params.set(decodeURIComponent(k ?? ''), decodeURIComponent(v));
  }
  const number = (text: string | undefined): bigint | undefined => {
    if (text === undefined) return undefined;
    const n = /^([0-9]+)(?:\.([0-9]+))?(?:[eE]([0-9]+))?$/.exec(text);
    if (!n) throw new Error(`bad EIP-681 number ${text}`);
    const frac = n[2] ?? '';
    const exp = Number(n[3] ?? 0);
    if (frac.length > exp) throw new Error(`EIP-681 number ${text} is not an integer`);
    return BigInt((n[1] ?? '') + frac) * 10n ** BigInt(exp - frac.length);
  };
  return {
    target: getAddress(m[1] as string),
    chainId: m[2] === undefined ? 1 : Number(m[2]),
    fn: m[3] ?? null,
    value: number(params.get('value')),
    address: params.has('address') ? getAddress(params.get('address') as string) : undefined,
    uint256: number(params.get('uint256')),
  };
}

// ---- tests ---------------------------------------------------------------------------------------------------

describe('live EVM networks from CHAINS_CONFIG', () => {
  it('GET /currencies lists the configured, reachable network with its configured token contracts, nothing else', async () => {
    const r = await t.api('/api/v1/currencies');
    expect(r.status).toBe(200);
    const listed = codes(r);
    expect(listed).toEqual(expect.arrayContaining(['ETH', 'USDTERC20', 'USDCERC20']));
    // base is configured but unreachable; BTC and BSC are not configured at all.
    for (const code of ['ETHBASE', 'USDCBASE', 'BTC', 'BNBBSC', 'USDTTRC20']) expect(listed).not.toContain(code);
    const usdtRow = r.json.data.find((c: { code: string }) => c.code === 'USDTERC20');
    expect(usdtRow.smart_contract).toBe(usdt);

    const refused = await t.api('/api/v1/payments', {
      body: { amount: 30, currency: 'ETHBASE', email: 'a@example.com' },
    });
    expect(refused.status).toBe(422);
    expect(refused.json.errors.currency[0]).toMatch(/not configured or not reachable/);
    expect(
      await t.service.deps.db.selectFrom('payments').select('id').where('pay_currency', '=', 'ETHBASE').execute(),
    ).toHaveLength(0);
  });

  it('refuses a live payment when the merchant has no xpub, and writes nothing', async () => {
    const other = await createMerchant(t.service.deps.db, clock, { name: 'No key yet', mode: 'live' });
    const r = await t.api('/api/v1/payments', {
      body: { amount: 30, currency: 'ETH', email: 'a@example.com' },
      key: other.secret_key,
    });
    expect(r.status).toBe(422);
    expect(r.json.errors.currency[0]).toMatch(/extended public key/);
    const keys = await t.service.deps.db
      .selectFrom('merchant_xpubs')
      .select('next_index')
      .where('merchant_id', '=', other.merchant_id)
      .execute();
    expect(keys).toEqual([]);
  });
});

describe('live addresses', () => {
  it('concurrent payments each take their own index N and pay to child 0/N', async () => {
    const made = await Promise.all(Array.from({ length: 12 }, (_, i) => create(i % 2 === 0 ? 'ETH' : 'USDTERC20')));
    const rows = await t.service.deps.db
      .selectFrom('payments')
      .select(['id', 'address_index', 'pay_address'])
      .where(
        'id',
        'in',
        made.map((m) => m.id),
      )
      .execute();
    const indexes = rows.map((r) => Number(r.address_index));
    expect(new Set(indexes).size).toBe(12);
    expect(new Set(rows.map((r) => r.pay_address)).size).toBe(12);
    for (const r of rows) {
      const pk = wallet.derive(`m/44'/60'/0'/0/${r.address_index}`).privateKey as Uint8Array;
      expect(r.pay_address).toBe(privateKeyToAccount(bytesToHex(pk)).address);
    }
    const m = await t.service.deps.db
      .selectFrom('merchant_xpubs')
      .select('next_index')
      .where('merchant_id', '=', t.merchant.merchant_id)
      .where('chain', '=', 'evm')
      .executeTakeFirstOrThrow();
    expect(Number(m.next_index)).toBe(Math.max(...indexes) + 1);
  });
});

describe('live EVM payments on anvil', () => {
  it('paid in full in ETH: address is child 0/N of the xpub, the EIP-681 URI pays it, waiting -> confirming -> finished', async () => {
    const p = await create('ETH');
    const row = await t.service.deps.db
      .selectFrom('payments')
      .select(['address_index'])
      .where('id', '=', p.id)
      .executeTakeFirstOrThrow();
    const index = Number(row.address_index);
    // The wallet's own (private) derivation gives the same address: the merchant sees the payment at 0/N.
    const pk = wallet.derive(`m/44'/60'/0'/0/${index}`).privateKey as Uint8Array;
    expect(p.address).toBe(privateKeyToAccount(bytesToHex(pk)).address);
    const second = await create('ETH');
    expect(second.address).toBe(
      privateKeyToAccount(bytesToHex(wallet.derive(`m/44'/60'/0'/0/${index + 1}`).privateKey as Uint8Array)).address,
    );

    expect(p.units).toBe(10n ** 16n); // $30 at $3,000
    const uri = parseEip681(p.uri);
    expect(uri).toMatchObject({ target: p.address, chainId: ANVIL_CHAIN_ID, fn: null, value: p.units });
    expect(p.data.qr.payload).toBe(`ethereum:${p.address}@${ANVIL_CHAIN_ID}`);

    // Pay exactly what the URI says, as a wallet scanning the QR would.
    await sendEth(uri.target, uri.value as bigint);
    const h = await mine(1);
    let s = await waitStatus(p.id, 'confirming');
    expect(s.paid).toBe('0.01');
    expect(s.confirmed_at).toBeNull();
    await mine(CONFIRMATIONS - 2);
    await processed(h + CONFIRMATIONS - 2);
    expect((await status(p.id)).payment_status).toBe('confirming');
    await mine(1);
    s = await waitStatus(p.id, 'finished');
    expect(s.status_detail).toBe('none');
    expect(s.confirmed_at).not.toBeNull();
    expect(await eventStatuses(p.id)).toEqual(expect.arrayContaining(['confirming', 'finished']));
    const deps = await depositsOf(p.id);
    expect(deps).toHaveLength(1);
    expect(deps[0]).toMatchObject({
      network: 'live:eth',
      asset: 'ETH',
      amount_units: (10n ** 16n).toString(),
      block_height: h,
      removed: 0,
    });
    expect((await status(second.id)).payment_status).toBe('waiting');
  });

  it('paid in USDT (6-decimal ERC-20) in two parts via the token EIP-681 URI: partially_paid, then finished', async () => {
    const p = await create('USDTERC20', 30);
    expect(p.units).toBe(30_000_000n);
    expect(p.data.blockchain.smart_contract).toBe(usdt);
    const uri = parseEip681(p.uri);
    expect(uri).toMatchObject({
      target: usdt,
      chainId: ANVIL_CHAIN_ID,
      fn: 'transfer',
      address: p.address,
      uint256: 30_000_000n,
    });

    await sendToken(uri.target, uri.address as Address, 12_000_000n);
    await mine(CONFIRMATIONS);
    let s = await waitStatus(p.id, 'partially_paid');
    expect(s.status_detail).toBe('underpaid');
    expect(s.paid).toBe('12');

    await sendToken(usdt, p.address, 18_000_000n);
    await mine(1);
    s = await waitStatus(p.id, 'confirming');
    expect(s.paid).toBe('30');
    await mine(CONFIRMATIONS - 1);
    s = await waitStatus(p.id, 'finished');
    expect(s.status_detail).toBe('none');
    expect((await depositsOf(p.id)).map((d) => d.amount_units).sort()).toEqual(['12000000', '18000000']);
  });

  it('overpaid: finished with status_detail overpaid and the exact amount received', async () => {
    const p = await create('ETH');
    await sendEth(p.address, p.units + 1n);
    await mine(CONFIRMATIONS);
    const s = await waitStatus(p.id, 'finished');
    expect(s.status_detail).toBe('overpaid');
    expect(s.paid).toBe('0.010000000000000001');
  });

  it('a wrong token pays nothing: the other configured token is recorded, an unconfigured one is not seen', async () => {
    const p = await create('USDTERC20', 30);
    await sendToken(usdc, p.address, 30_000_000n);
    await sendToken(stranger, p.address, 30_000_000n);
    const h = await mine(CONFIRMATIONS);
    await processed(h);
    let s = await status(p.id);
    expect(s.payment_status).toBe('waiting');
    expect(s.paid).toBe('0');
    const deps = await depositsOf(p.id);
    expect(deps.map((d) => d.asset)).toEqual(['USDCERC20']);

    await sendToken(usdt, p.address, 30_000_000n);
    await mine(CONFIRMATIONS);
    s = await waitStatus(p.id, 'finished');
    expect(s.paid).toBe('30');
  });

  it('a reorg that removes the deposit rolls the payment back to waiting; paying again finishes it', async () => {
    const p = await create('ETH');
    const snapshot = await anvil.test.snapshot();
    await sendEth(p.address, p.units);
    await mine(1);
    await waitStatus(p.id, 'confirming');

    // Back to before the deposit. Until the node is past the height we had seen, a missing block reads as a node
    // that lags behind (as load-balanced RPCs do), not as a reorg: nothing is rolled back yet.
    const before = logs.length;
    await anvil.test.revert({ id: snapshot });
    await until(
      async () => logs.slice(before),
      (l) => l.some((x) => /is behind/.test(String(x.fields?.error ?? ''))),
    );
    expect((await status(p.id)).payment_status).toBe('confirming');
    // The block carrying the deposit is replaced by empty ones: a longer chain without the transaction.
    await mine(2);
    const s = await waitStatus(p.id, 'waiting');
    expect(s.paid).toBe('0');
    const [dep] = await depositsOf(p.id);
    expect(dep?.removed).toBe(1);
    expect(await eventStatuses(p.id)).toEqual(expect.arrayContaining(['confirming', 'waiting']));
    expect(logs.some((l) => l.msg === 'chain reorganisation')).toBe(true);

    await sendEth(p.address, p.units);
    await mine(CONFIRMATIONS);
    const done = await waitStatus(p.id, 'finished');
    expect(done.paid).toBe('0.01');
  });

  it('RPC down and back: the network is hidden and refused while unreachable or hanging, deposits made meanwhile count once', async () => {
    const p = await create('ETH');
    await proxy.down();
    await until(
      async () => codes(await t.api('/api/v1/currencies')),
      (c) => !c.includes('ETH'),
    );
    const refused = await t.api('/api/v1/payments', { body: { amount: 30, currency: 'ETH', email: 'a@example.com' } });
    expect(refused.status).toBe(422);

    // The chain moves on while we cannot see it.
    await sendEth(p.address, p.units);
    await mine(CONFIRMATIONS);

    // A node that accepts connections and never answers: only the RPC timeout ends each call.
    const before = logs.length;
    await proxy.hang();
    await until(
      async () => logs.slice(before),
      (l) => l.some((x) => /took too long|timed out|timeout/i.test(String(x.fields?.error ?? ''))),
    );
    expect((await status(p.id)).payment_status).toBe('waiting');
    expect(codes(await t.api('/api/v1/currencies'))).not.toContain('ETH');

    await proxy.up();
    await until(
      async () => codes(await t.api('/api/v1/currencies')),
      (c) => c.includes('ETH'),
      40_000,
    );
    const s = await until(
      () => status(p.id),
      (v) => v.payment_status === 'finished',
      40_000,
    );
    expect(s.paid).toBe('0.01');
    expect(await depositsOf(p.id)).toHaveLength(1);
    expect(logs.some((l) => l.fields?.chain === 'live:eth' && l.level === 'warn')).toBe(true);
    expect(JSON.stringify(logs)).not.toContain(RPC_KEY);
  }, 90_000);

  it('service restarted mid-way: resumes from its checkpoint, sees deposits made while down, counts nothing twice', async () => {
    const store = await freshStoreUrl();
    const a = await startLive({ DATABASE_URL: store.url });
    const key = a.merchant.secret_key;
    const p1 = await create('ETH', 30, a);
    const p2 = await create('USDTERC20', 30, a);
    await sendEth(p1.address, p1.units);
    const h = await mine(1);
    await waitStatus(p1.id, 'confirming', a);
    await processed(h, a);
    await a.close();

    // While the service is down: p1's deposit confirms and p2 is paid in a block it has never seen.
    await sendToken(usdt, p2.address, p2.units);
    await mine(CONFIRMATIONS);

    // Same store, new process; the harness's own merchant of this run has no xpub (A's key is A's alone).
    const b = await startLive({ DATABASE_URL: store.url }, false);
    try {
      const s1 = await waitStatus(p1.id, 'finished', b, key);
      const s2 = await waitStatus(p2.id, 'finished', b, key);
      expect(s1.paid).toBe('0.01');
      expect(s2.paid).toBe('30');
      expect(await depositsOf(p1.id, b)).toHaveLength(1);
      expect(await depositsOf(p2.id, b)).toHaveLength(1);
      // One event per change, none repeated by the second process.
      const e1 = await eventStatuses(p1.id, b);
      expect(e1.filter((x) => x === 'confirming')).toHaveLength(1);
      expect(e1.filter((x) => x === 'finished')).toHaveLength(1);
    } finally {
      await b.close();
      await store.dispose();
    }
  }, 90_000);

  it('after a restart, a node behind the stored checkpoint is waited for, not taken for a reorg', async () => {
    const store = await freshStoreUrl();
    const a = await startLive({ DATABASE_URL: store.url });
    const key = a.merchant.secret_key;
    const p = await create('ETH', 30, a);
    const snapshot = await anvil.test.snapshot();
    await sendEth(p.address, p.units);
    const h = await mine(1);
    await waitStatus(p.id, 'confirming', a);
    await processed(h, a);
    await a.close();

    // The node the new process meets is one block short of what the old one had processed.
    await anvil.test.revert({ id: snapshot });
    const before = logs.length;
    const b = await startLive({ DATABASE_URL: store.url }, false);
    try {
      await until(
        async () => logs.slice(before),
        (l) => l.some((x) => /is behind/.test(String(x.fields?.error ?? ''))),
      );
      expect((await status(p.id, b, key)).payment_status).toBe('confirming');
      const [dep] = await depositsOf(p.id, b);
      expect(dep?.block_height).toBe(h);
      // Once the node is past that height without the block, it was a reorg after all.
      await mine(2);
      const s = await waitStatus(p.id, 'waiting', b, key);
      expect(s.paid).toBe('0');
    } finally {
      await b.close();
      await store.dispose();
    }
  }, 90_000);

  it('paid late: a deposit first seen after valid_until is recorded, the payment stays expired with paid_late', async () => {
    const p = await create('ETH');
    const row = await t.service.deps.db
      .selectFrom('payments')
      .select('valid_until')
      .where('id', '=', p.id)
      .executeTakeFirstOrThrow();
    clock.set(Number(row.valid_until) + 5_000);
    await waitStatus(p.id, 'expired');
    // The node's clock moves too, so the block carrying the deposit is also after the window.
    await anvil.test.setNextBlockTimestamp({ timestamp: BigInt(Math.ceil(clock.now() / 1000) + 1) });
    await sendEth(p.address, p.units);
    const h = await mine(CONFIRMATIONS);
    const s = await until(
      () => status(p.id),
      (v) => v.status_detail === 'paid_late',
    );
    // Every block processed: the late deposit's confirmation (it counts in balances) must not land in the next test.
    await processed(h);
    expect(s.payment_status).toBe('expired');
    expect(s.paid).toBe('0.01');
    const [dep] = await depositsOf(p.id);
    expect(dep?.late).toBe(1);
  });

  it('a deposit mined before valid_until while the node was unreachable re-opens the expired payment and counts in full', async () => {
    const p = await create('ETH');
    const row = await t.service.deps.db
      .selectFrom('payments')
      .select('valid_until')
      .where('id', '=', p.id)
      .executeTakeFirstOrThrow();
    const ethBalance = async () => {
      const text = (await t.api('/api/v1/balances')).text;
      return units(/"currency":"ETH","amount":([0-9.]+)/.exec(text)?.[1] ?? '0', 18);
    };
    const before = await ethBalance();
    await proxy.down();
    await until(
      async () => codes(await t.api('/api/v1/currencies')),
      (c) => !c.includes('ETH'),
    );
    // Paid 8 s before the deadline, in blocks the service cannot see yet.
    await anvil.test.setNextBlockTimestamp({ timestamp: BigInt(Math.floor(Number(row.valid_until) / 1000) - 8) });
    await sendEth(p.address, p.units);
    await mine(CONFIRMATIONS);
    clock.set(Number(row.valid_until) + 5_000);
    await waitStatus(p.id, 'expired');

    await proxy.up();
    const s = await until(
      () => status(p.id),
      (v) => v.payment_status === 'finished',
      40_000,
    );
    expect(s.status_detail).toBe('none');
    expect(s.paid).toBe('0.01');
    const [dep] = await depositsOf(p.id);
    expect(dep?.late).toBe(0);
    expect(await eventStatuses(p.id)).toEqual(['expired', 'confirming', 'finished']);
    expect((await ethBalance()) - before).toBe(p.units);
  }, 90_000);
});
