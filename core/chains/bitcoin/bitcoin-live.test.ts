import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bech32 } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../../../server/cli/command.js';
import { xpubCommands } from '../../../server/cli/xpub-commands.js';
import { startTestService, type TestService } from '../../../server/testing/harness.js';
import { freshStoreUrl } from '../../../server/testing/store.js';
import { rawNumber, until } from '../../../server/testing/until.js';
import { setXpub } from '../../addresses/xpubs.js';
import { ManualClock } from '../../clock.js';
import type { Logger } from '../../log.js';
import { startRatesServer } from '../evm/testing/rates-server.js';
import { type Litecoind, startLitecoind } from './testing/litecoind.js';

/*
 * Live Bitcoin-family payments end to end: every test gets its own real `litecoind -regtest` (free port, fresh data
 * directory), its own service over HTTP in live mode on a fresh store with CHAINS_CONFIG naming that node, and a live
 * merchant whose keys come from random seeds. LTC is paid natively. BTC and DOGE share the code path and are watched on
 * the same node: outputs are matched by script, so paying the Litecoin encoding of a BTC (P2WPKH) or DOGE (P2PKH)
 * payment address pays that payment. The node mines only when a test says so, so confirmation counts are exact.
 */

const CONFIRMATIONS = 2;
/** BIP32 version bytes of tpub/tprv: regtest keys of every chain (SLIP-0132). */
const TEST_VERSIONS = { private: 0x04358394, public: 0x043587cf };
const PRICES = { litecoin: 100, bitcoin: 50_000, dogecoin: 10 };

interface Live {
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

async function live(opts: { env?: Record<string, string>; chains?: ('ltc' | 'btc' | 'doge')[] } = {}): Promise<Live> {
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
async function withLive(body: (l: Live) => Promise<void>, opts?: Parameters<typeof live>[0]): Promise<void> {
  const l = await live(opts);
  try {
    await body(l);
  } finally {
    await l.close();
  }
}

function codes(r: { json: { data?: { code: string }[] } }): string[] {
  return (r.json.data ?? []).map((c) => c.code);
}

interface Created {
  id: string;
  address: string;
  uri: string;
  payload: string;
  /** pay_amount as its exact digits. */
  amount: string;
  index: number;
}

async function create(s: TestService, currency = 'LTC', amount = 30, key?: string): Promise<Created> {
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

async function status(s: TestService, id: string, key?: string) {
  const r = await s.api(`/api/v1/payments/${id}`, key ? { key } : {});
  expect(r.status, r.text).toBe(200);
  return { ...r.json.data, paid: rawNumber(r.text, 'actually_paid') } as {
    payment_status: string;
    status_detail: string;
    paid: string;
    confirmed_at: string | null;
  };
}

async function waitStatus(s: TestService, id: string, want: string, key?: string) {
  return until(
    () => status(s, id, key),
    (v) => v.payment_status === want,
  );
}

async function deposits(s: TestService, id: string) {
  return s.service.deps.db
    .selectFrom('deposits')
    .selectAll()
    .where('payment_id', '=', id)
    .orderBy('first_seen_at')
    .orderBy('log_index')
    .execute();
}

async function events(s: TestService, id: string) {
  const rows = await s.service.deps.db
    .selectFrom('payment_events')
    .select('status')
    .where('payment_id', '=', id)
    .orderBy('sequence')
    .execute();
  return rows.map((r) => r.status);
}

/** Waits until the service's watcher of `network` has processed `height`. */
async function processed(s: TestService, height: number, network = 'ltc') {
  await until(
    () => s.service.deps.chains.headOf(`live:${network}`),
    (h) => h !== null && h >= height,
  );
}

/** Waits until the watcher's mempool pass has recorded a deposit of `txid` to the payment. */
async function seen(s: TestService, id: string, txid: string) {
  await until(
    () => deposits(s, id),
    (ds) => ds.some((d) => d.txid === txid && d.removed === 0),
  );
}

/** Runs the admin CLI's `xpub show` command for the service's merchant on the service's store; returns its output. */
async function xpubShow(s: TestService, args: string[], gapLimit: number): Promise<string> {
  const cmd = xpubCommands.find((c) => c.name === 'xpub show');
  if (!cmd?.run) throw new Error('no xpub show command');
  const lines: string[] = [];
  const values = parseCommandArgs(cmd, ['--merchant', s.merchant.merchant_id, ...args]);
  await cmd.run(
    {
      db: s.service.deps.db,
      clock: s.service.deps.clock,
      out: (l) => lines.push(l),
      publicUrl: s.url,
      readStdin: async () => '',
      utxoNetOf: (chain) => s.service.config.UTXO_NETWORKS.find((n) => n.network === chain)?.chain ?? null,
      gapLimit,
      evmNetworks: [],
      secrets: s.service.secrets,
    },
    values,
  );
  return lines.join('\n');
}

/** BIP21 parsed from the grammar alone: `scheme:ADDRESS?amount=DECIMAL`. */
function parseBip21(uri: string): { scheme: string; address: string; amount: string | null } {
  const m = /^([a-z]+):([^?]+)(?:\?(.*))?$/.exec(uri);
  if (!m) throw new Error(`not BIP21: ${uri}`);
  const params = new URLSearchParams(m[3] ?? '');
  return { scheme: m[1] as string, address: m[2] as string, amount: params.get('amount') };
}

/** The node's own derivation of receive address 0/index of a descriptor over the account key (independent of ours). */
async function nodeAddress(node: Litecoind, descriptor: string, index: number): Promise<string> {
  const info = await node.rpc.call<{ checksum: string }>('getdescriptorinfo', [descriptor]);
  const [address] = await node.rpc.call<string[]>('deriveaddresses', [
    `${descriptor}#${info.checksum}`,
    [index, index],
  ]);
  return address as string;
}

/** The Litecoin regtest encoding (rltc1q...) of a bech32 address of another chain: the same output script. */
function asLitecoin(address: string): string {
  const decoded = bech32.decode(address as `${string}1${string}`);
  return bech32.encode('rltc', decoded.words);
}

describe('live LTC payments on a real litecoind (regtest)', () => {
  it("paid in full through the BIP21 URI: address is the wallet's 0/N, waiting -> confirming from the mempool -> finished", async () => {
    await withLive(async ({ t, node, wallets }) => {
      const listed = (await t.api('/api/v1/currencies')).json.data as { code: string; wallet_regex: string }[];
      expect(listed.map((c) => c.code)).toEqual(['LTC']);
      const p = await create(t);
      expect(p.address).toMatch(/^rltc1q/);
      expect(new RegExp(listed[0]?.wallet_regex ?? '$^').test(p.address)).toBe(true);
      const account = wallets.ltc.derive("m/84'/1'/0'").publicExtendedKey;
      expect(p.address).toBe(await nodeAddress(node, `wpkh(${account}/0/*)`, p.index));
      expect(p.index).toBe(0);
      const second = await create(t);
      expect(second.index).toBe(1);
      expect(second.address).toBe(await nodeAddress(node, `wpkh(${account}/0/*)`, 1));

      expect(p.amount).toBe('0.3'); // $30 at $100
      const uri = parseBip21(p.uri);
      expect(uri).toEqual({ scheme: 'litecoin', address: p.address, amount: '0.3' });
      expect(p.payload).toBe(`litecoin:${p.address}`);

      // Pay exactly what the URI says, as a wallet scanning the QR would; no block yet.
      const txid = await node.send(uri.address, uri.amount as string);
      let s = await waitStatus(t, p.id, 'confirming');
      expect(s.paid).toBe('0.3');
      expect(s.confirmed_at).toBeNull();
      const [dep] = await deposits(t, p.id);
      expect(dep).toMatchObject({
        txid,
        network: 'live:ltc',
        asset: 'LTC',
        amount_units: '30000000',
        block_height: null,
      });

      const [h1] = await node.mine(1);
      const height = await node.rpc.call<number>('getblockcount');
      await processed(t, height);
      expect((await status(t, p.id)).payment_status).toBe('confirming');
      expect((await deposits(t, p.id))[0]).toMatchObject({ block_hash: h1, block_height: height });
      await node.mine(1);
      s = await waitStatus(t, p.id, 'finished');
      expect(s.status_detail).toBe('none');
      expect(s.confirmed_at).not.toBeNull();
      expect(await events(t, p.id)).toEqual(['confirming', 'finished']);
      expect(await deposits(t, p.id)).toHaveLength(1);
      expect((await status(t, second.id)).payment_status).toBe('waiting');
      const balances = await t.api('/api/v1/balances');
      expect(balances.text).toMatch(/"currency":"LTC","amount":0\.3,/);
    });
  });

  it('two outputs to one payment in one transaction add up; one transaction paying two payments pays both', async () => {
    await withLive(async ({ t, node }) => {
      const a = await create(t);
      const b = await create(t);
      const c = await create(t);
      const one = await node.sendOutputs([
        { address: a.address, amount: '0.1' },
        { address: a.address, amount: '0.2' },
      ]);
      const two = await node.sendOutputs([
        { address: b.address, amount: '0.3' },
        { address: c.address, amount: '0.3' },
      ]);
      await waitStatus(t, a.id, 'confirming');
      await node.mine(CONFIRMATIONS);
      const sa = await waitStatus(t, a.id, 'finished');
      expect(sa.paid).toBe('0.3');
      expect(sa.status_detail).toBe('none');
      expect((await deposits(t, a.id)).map((d) => [d.txid, d.log_index, d.amount_units])).toEqual(
        [
          [one.txid, one.indexes[0], '10000000'],
          [one.txid, one.indexes[1], '20000000'],
        ].sort((x, y) => Number(x[1]) - Number(y[1])),
      );
      for (const p of [b, c]) {
        const s = await waitStatus(t, p.id, 'finished');
        expect(s.paid).toBe('0.3');
        const ds = await deposits(t, p.id);
        expect(ds).toHaveLength(1);
        expect(ds[0]?.txid).toBe(two.txid);
      }
    });
  });

  it('partial then top-up: partially_paid (underpaid) once confirmed short, then confirming and finished', async () => {
    await withLive(async ({ t, node }) => {
      const p = await create(t);
      await node.send(p.address, '0.1');
      await node.mine(CONFIRMATIONS);
      let s = await waitStatus(t, p.id, 'partially_paid');
      expect(s.status_detail).toBe('underpaid');
      expect(s.paid).toBe('0.1');
      // One satoshi short is still short: amounts are exact base units.
      await node.send(p.address, '0.19999999');
      s = await waitStatus(t, p.id, 'confirming');
      expect(s.paid).toBe('0.29999999');
      await node.mine(CONFIRMATIONS);
      s = await waitStatus(t, p.id, 'partially_paid');
      await until(
        () => status(t, p.id),
        (v) => v.paid === '0.29999999' && v.status_detail === 'underpaid',
      );
      await node.send(p.address, '0.00000001');
      await waitStatus(t, p.id, 'confirming');
      await node.mine(CONFIRMATIONS);
      s = await waitStatus(t, p.id, 'finished');
      expect(s.paid).toBe('0.3');
      expect(s.status_detail).toBe('none');
      const seenStatuses = await events(t, p.id);
      expect(seenStatuses.at(-1)).toBe('finished');
      expect(seenStatuses.filter((x) => x === 'partially_paid')).toHaveLength(2);
    });
  });

  it('overpaid by one satoshi: finished with status_detail overpaid and the exact amount', async () => {
    await withLive(async ({ t, node }) => {
      const p = await create(t);
      await node.send(p.address, '0.30000001');
      await node.mine(CONFIRMATIONS);
      const s = await waitStatus(t, p.id, 'finished');
      expect(s.status_detail).toBe('overpaid');
      expect(s.paid).toBe('0.30000001');
    });
  });

  it('paid late: a deposit first seen after valid_until, in a block timed after it, leaves the payment expired with paid_late', async () => {
    await withLive(async ({ t, node, clock }) => {
      const p = await create(t);
      const row = await t.service.deps.db
        .selectFrom('payments')
        .select('valid_until')
        .where('id', '=', p.id)
        .executeTakeFirstOrThrow();
      clock.set(Number(row.valid_until) + 5_000);
      await waitStatus(t, p.id, 'expired');
      // The node's clock moves too, so the block carrying the deposit is timed after the window as well.
      await node.rpc.call('setmocktime', [Math.ceil(clock.now() / 1000) + 1]);
      const txid = await node.send(p.address, '0.3');
      await seen(t, p.id, txid);
      let s = await until(
        () => status(t, p.id),
        (v) => v.status_detail === 'paid_late',
      );
      expect(s.payment_status).toBe('expired');
      const height = (await node.rpc.call<number>('getblockcount')) + CONFIRMATIONS;
      await node.mine(CONFIRMATIONS);
      await processed(t, height);
      s = await status(t, p.id);
      expect(s.payment_status).toBe('expired');
      expect(s.status_detail).toBe('paid_late');
      expect(s.paid).toBe('0.3');
      const [dep] = await deposits(t, p.id);
      expect(dep).toMatchObject({ late: 1, removed: 0, block_height: height - 1 });
      expect(await events(t, p.id)).toEqual(['expired', 'expired']);
    });
  });

  it("a reorg that drops the deposit's block rolls it back to the mempool; one that replaces it rolls the payment back to waiting", async () => {
    await withLive(async ({ t, node, logs }) => {
      // 1. The deposit's block is invalidated and a longer chain is mined without it: the transaction is back in the
      // mempool, so the deposit is unconfirmed again (no block), and counts once when mined again.
      const p = await create(t);
      const txid = await node.send(p.address, '0.3', { replaceable: true });
      const [block] = await node.mine(1);
      const height = await node.rpc.call<number>('getblockcount');
      await processed(t, height);
      expect((await deposits(t, p.id))[0]).toMatchObject({ txid, block_hash: block, block_height: height });
      await node.invalidateBlock(block as string);
      for (let i = 0; i < 2; i++) await node.rpc.call('generateblock', [node.minerAddress, []]);
      await until(
        () => deposits(t, p.id),
        (ds) => ds[0]?.block_height === null,
      );
      expect(logs.some((l) => l.msg === 'chain reorganisation' && l.fields?.chain === 'live:ltc')).toBe(true);
      expect((await status(t, p.id)).payment_status).toBe('confirming');

      // 2. The same transaction, now double-spent by the payer in the new chain: the deposit is gone for good.
      const conflict = await node.doubleSpend(txid, node.minerAddress);
      await node.mine(1);
      let s = await waitStatus(t, p.id, 'waiting');
      expect(s.paid).toBe('0');
      const gone = await deposits(t, p.id);
      expect(gone).toHaveLength(1);
      expect(gone[0]?.removed).toBe(1);
      expect(await node.rpc.call<{ confirmations: number }>('getrawtransaction', [conflict, true])).toMatchObject({
        confirmations: 1,
      });
      expect(await events(t, p.id)).toEqual(['confirming', 'waiting']);

      // Paying again finishes it; the removed deposit never counts.
      await node.send(p.address, '0.3');
      await node.mine(CONFIRMATIONS);
      s = await waitStatus(t, p.id, 'finished');
      expect(s.paid).toBe('0.3');
    });
  }, 60_000);

  it('RBF: a fee bump replaces the deposit by the new transaction; a conflicting transaction removes it', async () => {
    await withLive(async ({ t, node }) => {
      const p = await create(t);
      const first = await node.send(p.address, '0.3', { replaceable: true });
      await seen(t, p.id, first);
      const bumped = await node.bumpFee(first);
      await until(
        () => deposits(t, p.id),
        (ds) =>
          ds.some((d) => d.txid === bumped && d.removed === 0) && ds.some((d) => d.txid === first && d.removed === 1),
      );
      expect((await status(t, p.id)).payment_status).toBe('confirming');
      expect((await status(t, p.id)).paid).toBe('0.3');
      await node.mine(CONFIRMATIONS);
      const s = await waitStatus(t, p.id, 'finished');
      expect(s.paid).toBe('0.3');

      // A payer sends, then spends the same coins elsewhere with a higher fee: the payment is back to waiting.
      const q = await create(t);
      const sent = await node.send(q.address, '0.3', { replaceable: true });
      await waitStatus(t, q.id, 'confirming');
      await seen(t, q.id, sent);
      await node.doubleSpend(sent, node.minerAddress);
      const back = await waitStatus(t, q.id, 'waiting');
      expect(back.paid).toBe('0');
      expect((await deposits(t, q.id)).map((d) => d.removed)).toEqual([1]);
      expect(await events(t, q.id)).toEqual(['confirming', 'waiting']);
    });
  });

  it('service restarted mid-way: resumes from its checkpoint, sees what happened while down, counts nothing twice', async () => {
    await withLive(async (l) => {
      const { node } = l;
      const store = await freshStoreUrl();
      try {
        const a = await l.start({ DATABASE_URL: store.url });
        // This store's merchant has a key of its own (a key is one merchant's alone, per store as everywhere).
        const own = HDKey.fromMasterSeed(randomBytes(32), TEST_VERSIONS).derive("m/84'/1'/0'").publicExtendedKey;
        expect((await setXpub(a.service.deps.db, l.clock, a.merchant.merchant_id, 'ltc', own, 'regtest')).ok).toBe(
          true,
        );
        await until(
          async () => codes(await a.api('/api/v1/currencies')),
          (c) => c.includes('LTC'),
        );
        const key = a.merchant.secret_key;
        const p1 = await create(a);
        const p2 = await create(a);
        await node.send(p1.address, '0.3');
        await waitStatus(a, p1.id, 'confirming');
        await node.mine(1);
        await processed(a, await node.rpc.call<number>('getblockcount'));
        await a.close();

        // While the service is down: p1 confirms, p2 is paid and mined in blocks it has never seen.
        await node.send(p2.address, '0.3');
        await node.mine(CONFIRMATIONS);

        // p2 was never in a mempool this service saw: only resuming from the checkpoint finds its block.
        const b = await l.start({ DATABASE_URL: store.url });
        const s1 = await waitStatus(b, p1.id, 'finished', key);
        const s2 = await waitStatus(b, p2.id, 'finished', key);
        expect([s1.paid, s2.paid]).toEqual(['0.3', '0.3']);
        expect(await deposits(b, p1.id)).toHaveLength(1);
        expect(await deposits(b, p2.id)).toHaveLength(1);
        expect(await events(b, p1.id)).toEqual(['confirming', 'finished']);
        // Caught up block by block: one confirmation, then two, each event once.
        expect(await events(b, p2.id)).toEqual(['confirming', 'finished']);
      } finally {
        await store.dispose();
      }
    });
  }, 60_000);

  it('node down and back: LTC is hidden and refused while the node is down; deposits made meanwhile count once', async () => {
    await withLive(async ({ t, node, logs }) => {
      const p = await create(t);
      const txid = await node.send(p.address, '0.3');
      await seen(t, p.id, txid);
      await node.halt();
      await until(
        async () => codes(await t.api('/api/v1/currencies')),
        (c) => !c.includes('LTC'),
      );
      const refused = await t.api('/api/v1/payments', {
        body: { amount: 30, currency: 'LTC', email: 'a@example.com' },
      });
      expect(refused.status).toBe(422);
      expect(refused.json.errors.currency[0]).toMatch(/not configured or not reachable/);

      // Back with a new cookie (the node writes one per start): the client reads it again. The mempool survived.
      await node.restart();
      await until(
        async () => codes(await t.api('/api/v1/currencies')),
        (c) => c.includes('LTC'),
        40_000,
      );
      await node.mine(CONFIRMATIONS);
      const s = await until(
        () => status(t, p.id),
        (v) => v.payment_status === 'finished',
        40_000,
      );
      expect(s.paid).toBe('0.3');
      expect(await deposits(t, p.id)).toHaveLength(1);
      expect(logs.some((l) => l.msg === 'chain sync failed' && l.fields?.chain === 'live:ltc')).toBe(true);
      expect(logs.some((l) => l.msg === 'chain reachable again' && l.fields?.chain === 'live:ltc')).toBe(true);
      expect(JSON.stringify(logs)).not.toContain(node.password);
    });
  }, 90_000);
});

describe('BTC and DOGE on the same code path, watched on the same regtest node by script', () => {
  it('a BTC (P2WPKH) and a DOGE (P2PKH) payment are paid through the Litecoin encoding of their scripts', async () => {
    await withLive(
      async ({ t, node, wallets }) => {
        const listed = (await t.api('/api/v1/currencies')).json.data as { code: string; wallet_regex: string }[];
        expect(listed.map((c) => c.code).sort()).toEqual(['BTC', 'DOGE', 'LTC']);

        const btc = await create(t, 'BTC');
        expect(btc.address).toMatch(/^bcrt1q/);
        expect(btc.index).toBe(0);
        expect(btc.amount).toBe('0.0006'); // $30 at $50,000
        expect(parseBip21(btc.uri)).toEqual({ scheme: 'bitcoin', address: btc.address, amount: '0.0006' });
        const btcAccount = wallets.btc.derive("m/84'/1'/0'").publicExtendedKey;
        const paidAt = asLitecoin(btc.address);
        // The node's own derivation of the wallet's 0/0, in its encoding: the same script as our BTC address.
        expect(paidAt).toBe(await nodeAddress(node, `wpkh(${btcAccount}/0/*)`, 0));

        const doge = await create(t, 'DOGE');
        // Dogecoin regtest and Litecoin regtest share the P2PKH version (111): the same text is the same script.
        expect(doge.address).toMatch(/^[mn]/);
        expect(doge.index).toBe(0);
        expect(doge.amount).toBe('3'); // $30 at $10 (the regtest wallet holds tens of coins, not hundreds)
        expect(parseBip21(doge.uri)).toEqual({ scheme: 'dogecoin', address: doge.address, amount: '3' });
        const dogeAccount = wallets.doge.derive("m/44'/1'/0'").publicExtendedKey;
        expect(doge.address).toBe(await nodeAddress(node, `pkh(${dogeAccount}/0/*)`, 0));
        for (const c of listed) {
          const address = c.code === 'BTC' ? btc.address : c.code === 'DOGE' ? doge.address : null;
          if (address) expect(new RegExp(c.wallet_regex).test(address), c.code).toBe(true);
        }

        // Each chain counts its own indexes: a second LTC payment does not move BTC's or DOGE's.
        expect((await create(t, 'LTC')).index).toBe(0);
        expect((await create(t, 'BTC')).index).toBe(1);

        await node.send(paidAt, '0.0006');
        await node.send(doge.address, '3');
        await waitStatus(t, btc.id, 'confirming');
        await waitStatus(t, doge.id, 'confirming');
        await node.mine(CONFIRMATIONS);
        const sb = await waitStatus(t, btc.id, 'finished');
        const sd = await waitStatus(t, doge.id, 'finished');
        expect(sb.paid).toBe('0.0006');
        expect(sd.paid).toBe('3');
        expect((await deposits(t, btc.id))[0]).toMatchObject({
          network: 'live:btc',
          asset: 'BTC',
          amount_units: '60000',
        });
        expect((await deposits(t, doge.id))[0]).toMatchObject({
          network: 'live:doge',
          asset: 'DOGE',
          amount_units: '300000000',
        });
      },
      { chains: ['ltc', 'btc', 'doge'] },
    );
  }, 60_000);
});

describe('gap limit', () => {
  it('past UTXO_GAP_LIMIT unpaid addresses: a warning, then new addresses only at the slow rate (429, nothing written); a paid one resets the run', async () => {
    await withLive(
      async ({ t, node, logs }) => {
        const made = [];
        for (let i = 0; i < 3; i++) made.push(await create(t));
        expect(logs.some((l) => /gap limit/.test(l.msg))).toBe(false);
        // Index 3 follows three unused addresses: a wallet with a gap limit of 3 stops before it.
        const past = await create(t);
        expect(past.index).toBe(3);
        const warning = logs.find((l) => /gap limit/.test(l.msg));
        expect(warning).toMatchObject({
          level: 'warn',
          fields: { merchant_id: t.merchant.merchant_id, network: 'ltc', index: 3, gap_limit: 3 },
        });
        const before = await t.service.deps.db.selectFrom('payments').select('id').execute();
        const refused = await t.api('/api/v1/payments', {
          body: { amount: 30, currency: 'LTC', email: 'a@example.com' },
        });
        expect(refused.status, refused.text).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(await t.service.deps.db.selectFrom('payments').select('id').execute()).toHaveLength(before.length);

        // The operator's view of it: `xpub show --chain ltc` (the CLI's own command, on this store).
        const shown = await xpubShow(t, ['--chain', 'ltc'], 3);
        expect(shown).toContain('4 address(es) handed out since the last paid one (none paid yet); gap limit 3.');
        expect(shown).toContain('WARNING: past the gap limit');

        // A customer pays the newest one: the wallet finds it, and the addresses after it are in reach again.
        const txid = await node.send(past.address, '0.3');
        await seen(t, past.id, txid);
        const next = await create(t);
        expect(next.index).toBe(4); // the refused payment's index was rolled back with it, never handed out
        const after = JSON.parse(await xpubShow(t, ['--chain', 'ltc', '--json'], 3));
        expect(after).toMatchObject({ last_paid_index: 3, unused_run: 1, gap_limit: 3, next_address_index: 5 });
        expect(await xpubShow(t, ['--chain', 'ltc'], 3)).not.toContain('WARNING');
      },
      { env: { UTXO_GAP_LIMIT: '3', UTXO_PAST_GAP_PER_MINUTE: '1' } },
    );
  });
});
