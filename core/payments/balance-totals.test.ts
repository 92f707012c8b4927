import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildService } from '../../server/service.js';
import { startTestService, type TestService } from '../../server/testing/harness.js';
import { ManualClock } from '../clock.js';
import { parseDecimal } from '../money/decimal.js';
import { sweepExpired } from './expiry.js';
import { markRefunded } from './refund.js';

let t: TestService;
const clock = new ManualClock(Date.UTC(2026, 3, 1, 9));
beforeAll(async () => {
  t = await startTestService({ clock });
});
afterAll(async () => {
  await t?.close();
});

/** Base units of an exact decimal text (no float anywhere). */
function units(text: string, decimals: number): bigint {
  const d = parseDecimal(text);
  if (!d) throw new Error(`not a decimal: ${text}`);
  return d.int * 10n ** BigInt(decimals - d.scale);
}

async function create(currency: string, amount: number) {
  const r = await t.api('/api/v1/payments', { body: { amount, currency, email: 'b@example.com' } });
  expect(r.status, r.text).toBe(201);
  return {
    id: r.json.data.payment.payment_id as string,
    address: r.json.data.blockchain.pay_address as string,
    network: r.json.data.blockchain.network as string,
    payAmount: /"pay_amount":([0-9.]+)/.exec(r.text)?.[1] as string,
  };
}
const send = (currency: string, address: string, amount: string) =>
  t.api('/api/v1/sandbox/transfers', { body: { currency, address, amount } });
const mine = (network: string, count: number) => t.api('/api/v1/sandbox/blocks', { body: { network, count } });

/** GET /balances as exact base units per asset. */
async function served(): Promise<Record<string, { amount: bigint; pending: bigint }>> {
  const r = await t.api('/api/v1/balances');
  const out: Record<string, { amount: bigint; pending: bigint }> = {};
  for (const m of r.text.matchAll(/"currency":"([A-Z0-9]+)","amount":([0-9.]+),"pending_amount":([0-9.]+)/g)) {
    const decimals = t.service.deps.catalog.get(m[1] as string)?.decimals ?? 0;
    out[m[1] as string] = { amount: units(m[2] as string, decimals), pending: units(m[3] as string, decimals) };
  }
  return out;
}

/**
 * The README's rule, computed here from every deposit of the merchant (the old way, O(deposits)): `amount` = confirmed
 * deposits of finished and partially_paid payments, of paid_late payments, and late deposits; `pending` = deposits
 * with fewer confirmations than required. Removed deposits count nowhere.
 */
async function fromDeposits(): Promise<Record<string, { amount: bigint; pending: bigint }>> {
  const { db, chains } = t.service.deps;
  const rows = await db
    .selectFrom('deposits')
    .innerJoin('payments', 'payments.id', 'deposits.payment_id')
    .select([
      'deposits.asset',
      'deposits.amount_units',
      'deposits.block_height',
      'deposits.late',
      'deposits.removed',
      'payments.status',
      'payments.status_detail',
      'payments.network',
      'payments.mode',
    ])
    .where('payments.merchant_id', '=', t.merchant.merchant_id)
    .execute();
  const out: Record<string, { amount: bigint; pending: bigint }> = {};
  for (const r of rows) {
    if (r.removed === 1) continue;
    const key = chains.chainKeyOf(r);
    const head = await chains.headOf(key);
    const confs = r.block_height === null || head === null ? 0 : head - r.block_height + 1;
    const e = out[r.asset] ?? { amount: 0n, pending: 0n };
    if (confs < chains.requiredConfirmations(key)) e.pending += BigInt(r.amount_units);
    else if (['finished', 'partially_paid'].includes(r.status) || r.status_detail === 'paid_late' || r.late === 1)
      e.amount += BigInt(r.amount_units);
    out[r.asset] = e;
  }
  return out;
}

describe('balance totals', () => {
  it('follow every kind of change exactly: mempool, confirmation, partial, over 64-bit wei, late, refund, re-open', async () => {
    const expectSame = async () => expect(await served()).toEqual(await fromDeposits());

    // Finished BTC; then a pending one in the mempool and at 1 of 2 confirmations.
    const a = await create('btc', 100);
    await send('BTC', a.address, a.payAmount);
    await expectSame();
    await mine('btc', 2);
    const b = await create('btc', 50);
    await send('BTC', b.address, b.payAmount);
    await mine('btc', 1);
    await expectSame();
    expect((await served()).BTC?.pending).toBe(units(b.payAmount, 8));
    await mine('btc', 1);
    await expectSame();

    // ETH beyond 2^64 wei (20 ETH = 2e19 wei): partially paid, summed exactly.
    const e = await create('eth', 1_000_000);
    await send('ETH', e.address, '20.123456789012345678');
    await mine('eth', 2);
    await expectSame();
    expect((await served()).ETH?.amount).toBe(20_123456789012345678n);

    // Refunded: its deposits count no more.
    await markRefunded(t.service.deps.db, clock, a.id, t.merchant.merchant_id);
    await expectSame();
    expect((await served()).BTC?.amount).toBe(units(b.payAmount, 8));

    // Expired, then paid late: counts once confirmed.
    const l = await create('ltc', 20);
    clock.advance((1200 + 900 + 60) * 1000);
    await sweepExpired(t.service.deps);
    await send('LTC', l.address, l.payAmount);
    await expectSame();
    await mine('ltc', 2);
    await expectSame();
    expect((await served()).LTC?.amount).toBe(units(l.payAmount, 8));
  });

  it('are filled for a store that had deposits before they existed, at the first start', async () => {
    const before = await served();
    expect(Object.keys(before).length).toBeGreaterThan(0);
    const { db } = t.service.deps;
    // The store as migration 0010 finds it: no totals, no shares, no backfill marker.
    await db.deleteFrom('merchant_balances').execute();
    await db.deleteFrom('balance_shares').execute();
    await db.deleteFrom('dropin_settings').where('key', '=', 'balance_totals_backfilled').execute();
    expect(await served()).toEqual({});
    const second = await buildService(t.service.config, { clock });
    try {
      expect(await served()).toEqual(before);
      expect(await served()).toEqual(await fromDeposits());
    } finally {
      await second.stop();
    }
  });
});
