import { describe, expect, it } from 'vitest';
import { freshStoreUrl } from '../../../server/testing/store.js';
import { until } from '../../../server/testing/until.js';
import {
  anvil,
  CONFIRMATIONS,
  clock,
  codes,
  create,
  depositsOf,
  eventStatuses,
  logs,
  mine,
  processed,
  proxy,
  RPC_KEY,
  sendEth,
  sendToken,
  setUpLiveEvm,
  startLive,
  status,
  t,
  units,
  usdt,
  waitStatus,
} from './testing/live-evm.js';

/*
 * Live EVM payments through what goes wrong (set-up in testing/live-evm.ts): a reorg, the RPC down or hanging, the
 * service restarted, and deposits that come late or while the node was out of sight.
 */

setUpLiveEvm();

describe('live EVM payments on anvil', () => {
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
