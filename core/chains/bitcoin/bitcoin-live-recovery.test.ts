import { randomBytes } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import { freshStoreUrl } from '../../../server/testing/store.js';
import { until } from '../../../server/testing/until.js';
import { setXpub } from '../../addresses/xpubs.js';
import {
  CONFIRMATIONS,
  codes,
  create,
  deposits,
  events,
  processed,
  seen,
  status,
  TEST_VERSIONS,
  waitStatus,
  withLive,
} from './testing/live-bitcoin.js';

/*
 * Live LTC payments through what goes wrong, one litecoind and service per test (set-up in testing/live-bitcoin.ts):
 * paid late, reorgs, RBF and double spends, the service restarted and the node down.
 */

describe('live LTC payments on a real litecoind (regtest)', () => {
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
