import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../../server/testing/harness.js';
import { freshStoreUrl } from '../../../server/testing/store.js';
import { rawNumber, until } from '../../../server/testing/until.js';
import { ManualClock } from '../../clock.js';
import type { Logger } from '../../log.js';
import { toUnits } from '../../money/decimal.js';
import { startRatesServer } from '../evm/testing/rates-server.js';
import { parseViewKey, subaddressAt } from './monero.js';
import { setViewKey } from './monero-keys.js';
import { type Monerod, startMonerod } from './testing/monerod.js';
import { randomWalletKeys } from './testing/wallet-keys.js';

/*
 * Live Monero payments end to end on one real `monerod --regtest --offline` shared by the tests of this file (200
 * blocks mined first take ~15 s), a full monero-wallet-rpc that mines and pays as the customer, and per test a service
 * over HTTP in live mode on a fresh store whose merchant registered a fresh primary address and view key. The service
 * reads monerod only; a view-only monero-wallet-rpc made from the same address and view key is the independent check
 * of what the merchant's own wallet sees.
 */

const CONFIRMATIONS = 2;
/** $30 at $150: 0.2 XMR. */
const PRICES = { monero: 150 };

let node: Monerod;
/** Kept so afterAll stops the daemons even when beforeAll timed out while they were still starting. */
let starting: Promise<Monerod> | undefined;
let rates: { url: string; close(): Promise<void> };
let configFile: string;

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

interface Live {
  t: TestService;
  clock: ManualClock;
  logs: { level: string; msg: string; fields?: Record<string, unknown> }[];
  keys: ReturnType<typeof randomWalletKeys>;
  close(): Promise<void>;
}

async function live(env: Record<string, string> = {}, clock = new ManualClock(Date.now())): Promise<Live> {
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

async function withLive(body: (l: Live) => Promise<void>): Promise<void> {
  const l = await live();
  try {
    await body(l);
  } finally {
    await l.close();
  }
}

function codes(r: { json: { data?: { code: string }[] } }): string[] {
  return (r.json.data ?? []).map((c) => c.code);
}

async function create(s: TestService, amount = 30) {
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

async function status(s: TestService, id: string) {
  const r = await s.api(`/api/v1/payments/${id}`);
  expect(r.status, r.text).toBe(200);
  return { ...r.json.data, paid: rawNumber(r.text, 'actually_paid') } as {
    payment_status: string;
    status_detail: string;
    paid: string;
    confirmed_at: string | null;
  };
}

const waitStatus = (s: TestService, id: string, want: string, ms = 30_000) =>
  until(
    () => status(s, id),
    (v) => v.payment_status === want,
    ms,
  );

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

async function processed(s: TestService, height: number) {
  await until(
    () => s.service.deps.chains.headOf('live:xmr'),
    (h) => h !== null && h >= height,
  );
}

/** Mines until `txid` is in a block, then enough blocks for CONFIRMATIONS; returns the deposit's height. */
async function confirm(s: TestService, txid: string): Promise<number> {
  const height = await node.mineUntilIn(txid);
  await node.mine(CONFIRMATIONS - 1);
  await processed(s, height + CONFIRMATIONS - 1);
  return height;
}

describe('Monero keys against monero-wallet-rpc', () => {
  it("the view key is checked against the address (spend key, seed and another's key refused); our subaddresses are the wallet's", async () => {
    const k = randomWalletKeys();
    const other = randomWalletKeys();
    const parsed = parseViewKey(k.address, k.viewKey);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const fields = (r: ReturnType<typeof parseViewKey>) => (r.ok ? null : JSON.stringify(r.error.errors));
    expect(fields(parseViewKey(k.address, k.spendKey))).toMatch(/SPEND key/);
    expect(fields(parseViewKey(k.address, other.viewKey))).toMatch(/does not belong to this address/);
    expect(fields(parseViewKey(k.address, Array(25).fill('abbey').join(' ')))).toMatch(/mnemonic seed/);
    expect(fields(parseViewKey(k.address, 'ff'.repeat(32)))).toMatch(/not a reduced scalar/);
    // A character changed: the checksum fails.
    const typo = `${k.address.slice(0, 10)}${k.address[10] === 'A' ? 'B' : 'A'}${k.address.slice(11)}`;
    expect(fields(parseViewKey(typo, k.viewKey))).toMatch(/Not a Monero address/);

    // wallet-rpc 0.18 itself accepts the spend key as a "view key" (the reason for the check above); with the right
    // view key it makes the view-only wallet whose subaddresses must be exactly ours.
    const wallet = await node.viewOnlyWallet(k.address, k.viewKey);
    try {
      const created = await wallet.call<{ addresses: string[]; address_indices: number[] }>('create_address', {
        account_index: 0,
        count: 5,
      });
      expect(created.address_indices).toEqual([1, 2, 3, 4, 5]);
      expect(created.addresses).toEqual([1, 2, 3, 4, 5].map((i) => subaddressAt(parsed.value, i)));
      expect(wallet.address).toBe(k.address);
    } finally {
      await wallet.stop();
    }
  }, 60_000);
});

describe('live Monero payments on a regtest monerod', () => {
  it('paid exactly through the monero: URI: subaddress per payment, mempool -> confirming -> finished; the view-only wallet agrees', async () => {
    await withLive(async ({ t, keys }) => {
      const listed = (await t.api('/api/v1/currencies')).json.data as { code: string; wallet_regex: string }[];
      expect(listed.map((c) => c.code)).toEqual(['XMR']);
      const parsed = parseViewKey(keys.address, keys.viewKey);
      if (!parsed.ok) throw parsed.error;
      const p = await create(t);
      const second = await create(t);
      expect([p.index, second.index]).toEqual([1, 2]);
      expect(p.address).toBe(subaddressAt(parsed.value, 1));
      expect(second.address).toBe(subaddressAt(parsed.value, 2));
      expect(p.address).toMatch(/^8/);
      expect(new RegExp(listed[0]?.wallet_regex ?? '$^').test(p.address)).toBe(true);
      expect(p.amount).toBe('0.2');
      expect(p.uri).toBe(`monero:${p.address}?tx_amount=0.2`);

      // An amount down to the last piconero: $30.01 at $150 is 0.200066666667 (rounded up at 12 decimals).
      const exact = await create(t, 30.01);
      expect(exact.amount).toBe('0.200066666667');
      expect(exact.uri).toBe(`monero:${exact.address}?tx_amount=0.200066666667`);

      const txid = await node.pay([
        { address: p.address, amount: p.units },
        { address: exact.address, amount: exact.units },
      ]);
      let s = await waitStatus(t, p.id, 'confirming');
      expect(s.paid).toBe('0.2');
      expect(s.confirmed_at).toBeNull();
      expect(await deposits(t, p.id)).toMatchObject([
        { txid, network: 'live:xmr', asset: 'XMR', amount_units: '200000000000', block_height: null },
      ]);
      const height = await node.mineUntilIn(txid);
      await processed(t, height);
      expect((await status(t, p.id)).payment_status).toBe('confirming');
      expect((await deposits(t, p.id))[0]).toMatchObject({ block_height: height });
      await node.mine(CONFIRMATIONS - 1);
      s = await waitStatus(t, p.id, 'finished');
      expect(s.status_detail).toBe('none');
      expect(s.confirmed_at).not.toBeNull();
      expect(await events(t, p.id)).toEqual(['confirming', 'finished']);
      const se = await waitStatus(t, exact.id, 'finished');
      expect(se.paid).toBe('0.200066666667');
      expect(se.status_detail).toBe('none');
      expect((await status(t, second.id)).payment_status).toBe('waiting');

      // The merchant's own view-only wallet, made from the same address and view key, sees the same outputs.
      const wallet = await node.viewOnlyWallet(keys.address, keys.viewKey);
      try {
        await wallet.call('create_address', { account_index: 0, count: 3 });
        await wallet.call('rescan_blockchain');
        const seen = await wallet.call<{ in?: { txid: string; amount: number; subaddr_index: { minor: number } }[] }>(
          'get_transfers',
          { in: true, pool: true },
        );
        const mine = (seen.in ?? []).filter((x) => x.txid === txid).map((x) => [x.subaddr_index.minor, x.amount]);
        expect(mine.sort()).toEqual([
          [1, 200000000000],
          [3, 200066666667],
        ]);
      } finally {
        await wallet.stop();
      }
    });
  }, 120_000);

  it('one transaction paying three payments counts for each: exact, partial (then topped up) and over', async () => {
    await withLive(async ({ t }) => {
      const exact = await create(t);
      const partial = await create(t);
      const over = await create(t);
      const txid = await node.pay([
        { address: exact.address, amount: exact.units },
        { address: partial.address, amount: partial.units / 2n },
        { address: over.address, amount: over.units + 1n },
      ]);
      await confirm(t, txid);
      expect((await waitStatus(t, exact.id, 'finished')).paid).toBe('0.2');
      const o = await waitStatus(t, over.id, 'finished');
      expect(o.status_detail).toBe('overpaid');
      expect(o.paid).toBe('0.200000000001');
      const u = await waitStatus(t, partial.id, 'partially_paid');
      expect(u.paid).toBe('0.1');

      // A second transfer to the same subaddress adds up.
      const topUp = await node.pay([{ address: partial.address, amount: partial.units / 2n }]);
      await waitStatus(t, partial.id, 'confirming');
      await confirm(t, topUp);
      const f = await waitStatus(t, partial.id, 'finished');
      expect(f.paid).toBe('0.2');
      // Two deposits, one per transaction (first_seen_at is the block's whole-second time, so their order may tie).
      expect((await deposits(t, partial.id)).map((d) => d.txid).sort()).toEqual([txid, topUp].sort());
      for (const p of [exact, partial, over])
        expect((await deposits(t, p.id)).every((d) => d.removed === 0 && d.amount_units !== '0')).toBe(true);
    });
  }, 120_000);
});

describe('live Monero: late, restart, node down, popped blocks', () => {
  it('paid late: a deposit first seen after valid_until, in a block after it, leaves the payment expired with paid_late', async () => {
    // The payment is made an hour in the past, so its window has closed before the real-time chain carries the deposit.
    const clock = new ManualClock(Date.now() - 3_600_000);
    const l = await live({}, clock);
    try {
      const { t } = l;
      const p = await create(t);
      expect(p.validUntil).toBeLessThan(Date.now());
      clock.set(Date.now());
      await waitStatus(t, p.id, 'expired');
      const txid = await node.pay([{ address: p.address, amount: p.units }]);
      let s = await until(
        () => status(t, p.id),
        (v) => v.status_detail === 'paid_late',
      );
      expect(s.payment_status).toBe('expired');
      await confirm(t, txid);
      s = await status(t, p.id);
      expect([s.payment_status, s.status_detail, s.paid]).toEqual(['expired', 'paid_late', '0.2']);
      expect(await deposits(t, p.id)).toMatchObject([{ late: 1, removed: 0 }]);
    } finally {
      await l.close();
    }
  }, 120_000);

  it('service restarted with a payment in flight: resumes from its checkpoint and counts nothing twice', async () => {
    const store = await freshStoreUrl();
    try {
      const a = await live({ DATABASE_URL: store.url });
      const p1 = await create(a.t);
      const p2 = await create(a.t);
      const tx1 = await node.pay([{ address: p1.address, amount: p1.units }]);
      await waitStatus(a.t, p1.id, 'confirming');
      await a.close();

      // While the service is down: p1's transaction is mined and confirmed, p2 is paid and mined unseen.
      await node.mineUntilIn(tx1);
      const tx2 = await node.pay([{ address: p2.address, amount: p2.units }]);
      await node.mineUntilIn(tx2);
      await node.mine(CONFIRMATIONS);

      const b = await startTestService({
        mode: 'live',
        start: true,
        clock: a.clock,
        env: {
          CHAINS_CONFIG: configFile,
          RATES_BASE_URL: rates.url,
          RATES_STALE_SECONDS: '86400',
          DATABASE_URL: store.url,
        },
      });
      try {
        const key = a.t.merchant.secret_key;
        const get = async (id: string) => (await b.api(`/api/v1/payments/${id}`, { key })).json.data;
        const s1 = await until(
          () => get(p1.id),
          (v) => v.payment_status === 'finished',
        );
        const s2 = await until(
          () => get(p2.id),
          (v) => v.payment_status === 'finished',
        );
        expect([s1.actually_paid, s2.actually_paid]).toEqual([0.2, 0.2]);
        expect(await deposits(b, p1.id)).toHaveLength(1);
        expect(await deposits(b, p2.id)).toHaveLength(1);
        expect(await events(b, p1.id)).toEqual(['confirming', 'finished']);
      } finally {
        await b.close();
      }
    } finally {
      await store.dispose();
    }
  }, 120_000);

  it('monerod not answering, then back: XMR unlisted and refused (422) meanwhile; a deposit made before counts once', async () => {
    await withLive(async ({ t, logs }) => {
      const p = await create(t);
      const txid = await node.pay([{ address: p.address, amount: p.units }]);
      await waitStatus(t, p.id, 'confirming');
      node.freeze();
      try {
        await until(
          async () => codes(await t.api('/api/v1/currencies')),
          (c) => !c.includes('XMR'),
        );
        const refused = await t.api('/api/v1/payments', {
          body: { amount: 30, currency: 'XMR', email: 'a@example.com' },
        });
        expect(refused.status).toBe(422);
        expect(refused.json.errors.currency[0]).toMatch(/not configured or not reachable/);
      } finally {
        node.resume();
      }
      await until(
        async () => codes(await t.api('/api/v1/currencies')),
        (c) => c.includes('XMR'),
        40_000,
      );
      await confirm(t, txid);
      const s = await waitStatus(t, p.id, 'finished', 40_000);
      expect(s.paid).toBe('0.2');
      expect(await deposits(t, p.id)).toHaveLength(1);
      expect(logs.some((l) => l.msg === 'chain sync failed' && l.fields?.chain === 'live:xmr')).toBe(true);
      expect(JSON.stringify(logs)).not.toContain(await viewKeyOf(t));
    });
  }, 120_000);

  it('popped blocks: a re-mined deposit moves to its new block and counts once; a dropped transaction rolls the payment back to waiting', async () => {
    await withLive(async ({ t }) => {
      const p = await create(t);
      const txid = await node.pay([{ address: p.address, amount: p.units }]);
      const height = await node.mineUntilIn(txid);
      await processed(t, height);
      const [before] = await deposits(t, p.id);
      expect(before).toMatchObject({ block_height: height });

      // pop_blocks: the deposit's block is gone and its transaction back in the pool; new blocks carry it again.
      await node.popBlocks((await node.height()) - height + 1);
      expect(await node.inPool(txid)).toBe(true);
      const again = await node.mineUntilIn(txid);
      await node.mine(CONFIRMATIONS);
      await processed(t, again + CONFIRMATIONS);
      const s = await waitStatus(t, p.id, 'finished');
      expect(s.paid).toBe('0.2');
      const [after] = await deposits(t, p.id);
      expect(await deposits(t, p.id)).toHaveLength(1);
      expect(after?.block_hash).not.toBe(before?.block_hash);
      expect(after).toMatchObject({ txid, removed: 0, block_height: again });

      // Popped and then flushed from the pool: the transaction is gone (as when its inputs are spent elsewhere).
      const q = await create(t);
      const tx2 = await node.pay([{ address: q.address, amount: q.units }]);
      const h2 = await node.mineUntilIn(tx2);
      await processed(t, h2);
      expect((await status(t, q.id)).payment_status).toBe('confirming');
      await node.popBlocks((await node.height()) - h2 + 1);
      await node.flushPool();
      await node.mine(2);
      const back = await waitStatus(t, q.id, 'waiting');
      expect(back.paid).toBe('0');
      expect(await deposits(t, q.id)).toMatchObject([{ txid: tx2, removed: 1, block_height: null }]);
      expect(await events(t, q.id)).toEqual(['confirming', 'waiting']);
    });
  }, 120_000);
});

describe('live Monero: a double spend', () => {
  it('a pool transaction whose output is then spent by another, mined one rolls the payment back to waiting', async () => {
    await withLive(async ({ t }) => {
      const p = await create(t);
      const ds = await node.doubleSpend(p.address);
      const s = await waitStatus(t, p.id, 'confirming');
      expect(BigInt(toUnits(s.paid, 12) as bigint)).toBeGreaterThan(p.units);
      const other = await ds.replace();
      const back = await waitStatus(t, p.id, 'waiting');
      expect(back.paid).toBe('0');
      expect(await deposits(t, p.id)).toMatchObject([{ txid: ds.txid, removed: 1, block_height: null }]);
      // The first transaction can never come back: its output is spent by `other`, in a block.
      expect(await node.sendRaw(ds.hex)).toMatchObject({ double_spend: true });
      expect(other).not.toBe(ds.txid);
      expect(await events(t, p.id)).toEqual(['confirming', 'waiting']);
    });
  }, 120_000);
});

describe('live Monero: the subaddress lookahead', () => {
  it('past 200 unpaid subaddresses: a warning, then new ones only at the slow rate (429, nothing written); a paid one resets the run', async () => {
    const l = await live({ UTXO_PAST_GAP_PER_MINUTE: '1' });
    try {
      const { t, logs } = l;
      const db = t.service.deps.db;
      // As if subaddresses 1..199 had been handed out and never paid (the guard looks for deposits among them).
      await db
        .updateTable('merchant_xpubs')
        .set({ next_index: 200 })
        .where('merchant_id', '=', t.merchant.merchant_id)
        .where('chain', '=', 'xmr')
        .execute();
      const past = await create(t);
      expect(past.index).toBe(200);
      expect(logs.find((x) => /gap limit/.test(x.msg))).toMatchObject({
        level: 'warn',
        fields: { merchant_id: t.merchant.merchant_id, network: 'xmr', index: 200, gap_limit: 200 },
      });
      const before = await db.selectFrom('payments').select('id').execute();
      const refused = await t.api('/api/v1/payments', {
        body: { amount: 30, currency: 'XMR', email: 'a@example.com' },
      });
      expect(refused.status, refused.text).toBe(429);
      expect(await db.selectFrom('payments').select('id').execute()).toHaveLength(before.length);

      // Paid: the merchant's wallet finds subaddress 200, and the next ones are within its lookahead again.
      const txid = await node.pay([{ address: past.address, amount: past.units }]);
      await until(
        () => deposits(t, past.id),
        (ds) => ds.some((d) => d.txid === txid),
      );
      const next = await create(t);
      expect(next.index).toBe(201); // the refused payment's index rolled back with it
      await confirm(t, txid);
    } finally {
      await l.close();
    }
  }, 120_000);
});

async function viewKeyOf(t: TestService): Promise<string> {
  const row = await t.service.deps.db
    .selectFrom('merchant_xpubs')
    .select('view_key')
    .where('merchant_id', '=', t.merchant.merchant_id)
    .where('chain', '=', 'xmr')
    .executeTakeFirstOrThrow();
  return row.view_key as string;
}
