import { describe, expect, it } from 'vitest';
import { startTestService } from '../../../server/testing/harness.js';
import { freshStoreUrl } from '../../../server/testing/store.js';
import { until } from '../../../server/testing/until.js';
import { ManualClock } from '../../clock.js';
import { toUnits } from '../../money/decimal.js';
import {
  CONFIRMATIONS,
  codes,
  configFile,
  confirm,
  create,
  deposits,
  events,
  live,
  node,
  processed,
  rates,
  setUpMonerod,
  status,
  viewKeyOf,
  waitStatus,
  withLive,
} from './testing/live-monero.js';

/*
 * Live Monero payments through what goes wrong (set-up in testing/live-monero.ts): late, restarted, the node down,
 * popped blocks, a double spend and the subaddress lookahead.
 */

setUpMonerod();

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
