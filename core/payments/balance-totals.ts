import type { Kysely } from 'kysely';
import type { ChainView } from '../chains/types.js';
import type { Clock } from '../clock.js';
import { isPostgres } from '../store/dialect.js';
import type { Database } from '../store/schema.js';
import { confirmations, type Deposit } from './deposits.js';
import type { Payment } from './payment.js';

/**
 * Balances kept as totals, so GET /balances reads one row per asset however many payments a merchant has.
 *
 * The rule (README "GET /balances"): a deposit not removed counts in `pending` while it has fewer confirmations than
 * its chain requires; once confirmed it counts in `amount` when its payment is finished or partially_paid, or the
 * payment's detail is paid_late, or the deposit itself was late. A payment's share of each asset is stored beside
 * the totals (balance_shares), and every transaction that can move it (a payment re-derived from its deposits by
 * the watcher or the expiry sweep, a refund) applies the difference to merchant_balances in that same
 * transaction. Confirmations move only when a block is applied, and the watcher re-derives every payment with a
 * deposit in the confirmation window of that block in the block's own transaction, so a share is recomputed
 * whenever it can change.
 */

/** Statuses whose confirmed deposits count in `amount`. */
const SETTLED_FOR_BALANCE = new Set(['finished', 'partially_paid']);

export interface Share {
  asset: string;
  /** Confirmed deposits, and the late ones among them, in base units. */
  confirmed: bigint;
  confirmedLate: bigint;
  pending: bigint;
}

/** A payment's deposits per asset, by confirmation (removed deposits count nowhere). */
export function sharesOf(
  deposits: readonly Pick<Deposit, 'asset' | 'amount_units' | 'block_height' | 'late' | 'removed'>[],
  head: number | null,
  required: number,
): Share[] {
  const by = new Map<string, Share>();
  for (const d of deposits) {
    if (d.removed === 1) continue;
    const s = by.get(d.asset) ?? { asset: d.asset, confirmed: 0n, confirmedLate: 0n, pending: 0n };
    const units = BigInt(d.amount_units);
    if (confirmations(d.block_height, head) < required) s.pending += units;
    else {
      s.confirmed += units;
      if (d.late === 1) s.confirmedLate += units;
    }
    by.set(d.asset, s);
  }
  return [...by.values()];
}

/** What a share adds to `amount` for a payment in this status. */
function counted(p: Pick<Payment, 'status' | 'status_detail'>, s: Share): bigint {
  return SETTLED_FOR_BALANCE.has(p.status) || p.status_detail === 'paid_late' ? s.confirmed : s.confirmedLate;
}

/**
 * Brings the payment's stored shares to `shares` and applies the differences to the merchant's totals. Call in the
 * transaction that changed the payment or its deposits, after the change (the payment as it now is).
 */
export async function applyShares(
  trx: Kysely<Database>,
  p: Pick<Payment, 'id' | 'merchant_id' | 'status' | 'status_detail'>,
  shares: readonly Share[],
  now: number,
): Promise<void> {
  const stored = await trx.selectFrom('balance_shares').selectAll().where('payment_id', '=', p.id).execute();
  const assets = new Set([...stored.map((r) => r.asset), ...shares.map((s) => s.asset)]);
  for (const asset of assets) {
    const old = stored.find((r) => r.asset === asset);
    const next = shares.find((s) => s.asset === asset) ?? { asset, confirmed: 0n, confirmedLate: 0n, pending: 0n };
    const amount = counted(p, next);
    const dAmount = amount - BigInt(old?.counted_units ?? '0');
    const dPending = next.pending - BigInt(old?.pending_units ?? '0');
    const row = {
      confirmed_units: next.confirmed.toString(),
      confirmed_late_units: next.confirmedLate.toString(),
      pending_units: next.pending.toString(),
      counted_units: amount.toString(),
    };
    if (
      old &&
      old.confirmed_units === row.confirmed_units &&
      old.confirmed_late_units === row.confirmed_late_units &&
      old.pending_units === row.pending_units &&
      old.counted_units === row.counted_units
    )
      continue;
    await trx
      .insertInto('balance_shares')
      .values({ payment_id: p.id, asset, ...row })
      .onConflict((oc) => oc.columns(['payment_id', 'asset']).doUpdateSet(row))
      .execute();
    if (dAmount !== 0n || dPending !== 0n) await addToTotals(trx, p.merchant_id, asset, dAmount, dPending, now);
  }
}

/** After a change of status alone (a refund): re-counts the stored shares under the payment's new status. */
export async function recountShares(
  trx: Kysely<Database>,
  p: Pick<Payment, 'id' | 'merchant_id' | 'status' | 'status_detail'>,
  now: number,
): Promise<void> {
  const stored = await trx.selectFrom('balance_shares').selectAll().where('payment_id', '=', p.id).execute();
  await applyShares(
    trx,
    p,
    stored.map((r) => ({
      asset: r.asset,
      confirmed: BigInt(r.confirmed_units),
      confirmedLate: BigInt(r.confirmed_late_units),
      pending: BigInt(r.pending_units),
    })),
    now,
  );
}

async function addToTotals(
  trx: Kysely<Database>,
  merchantId: string,
  asset: string,
  dAmount: bigint,
  dPending: bigint,
  now: number,
): Promise<void> {
  // Base units exceed 64 bits (wei), so the sum is done here in bigint, under a row lock on PostgreSQL (SQLite
  // has one writer at a time).
  const q = trx
    .selectFrom('merchant_balances')
    .select(['amount_units', 'pending_units'])
    .where('merchant_id', '=', merchantId)
    .where('asset', '=', asset);
  const cur = await (isPostgres(trx) ? q.forUpdate() : q).executeTakeFirst();
  const amount_units = (BigInt(cur?.amount_units ?? '0') + dAmount).toString();
  const pending_units = (BigInt(cur?.pending_units ?? '0') + dPending).toString();
  if (cur) {
    await trx
      .updateTable('merchant_balances')
      .set({ amount_units, pending_units, updated_at: now })
      .where('merchant_id', '=', merchantId)
      .where('asset', '=', asset)
      .execute();
  } else {
    // A first deposit of an asset: two processes may race to create the row; the loser adds to the winner's.
    const inserted = await trx
      .insertInto('merchant_balances')
      .values({ merchant_id: merchantId, asset, amount_units, pending_units, updated_at: now })
      .onConflict((oc) => oc.columns(['merchant_id', 'asset']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0)
      await addToTotals(trx, merchantId, asset, dAmount, dPending, now);
  }
}

export interface BalanceTotal {
  asset: string;
  amountUnits: bigint;
  pendingUnits: bigint;
  updatedAt: number;
}

/** The merchant's totals, one row per asset it ever received. */
export async function balanceTotals(db: Kysely<Database>, merchantId: string): Promise<BalanceTotal[]> {
  const rows = await db.selectFrom('merchant_balances').selectAll().where('merchant_id', '=', merchantId).execute();
  return rows.map((r) => ({
    asset: r.asset,
    amountUnits: BigInt(r.amount_units),
    pendingUnits: BigInt(r.pending_units),
    updatedAt: r.updated_at,
  }));
}

/**
 * Fills the totals of a store that had deposits before they existed (migration 0010), once: the first service to
 * start computes every payment's shares from its deposits and the chains' heads. It needs the configured chains
 * (required confirmations), which a migration does not know, so it runs at start-up, after the watchers are set up.
 * One transaction with its marker: a crash leaves nothing half done, and a second process starting meanwhile waits
 * on the marker row (PostgreSQL) or the writer lock (SQLite), then finds it and skips.
 */
export async function backfillBalanceTotals(deps: { db: Kysely<Database>; chains: ChainView; clock: Clock }) {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const marked = await trx
      .insertInto('dropin_settings')
      .values({ key: 'balance_totals_backfilled', value: String(now) })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    if (Number(marked.numInsertedOrUpdatedRows ?? 0n) === 0) return;
    let after = '';
    for (;;) {
      const payments = await trx
        .selectFrom('payments')
        .selectAll()
        .where('id', '>', after)
        .where('id', 'in', (eb) => eb.selectFrom('deposits').select('payment_id'))
        .orderBy('id')
        .limit(500)
        .execute();
      for (const p of payments) {
        const deposits = await trx.selectFrom('deposits').selectAll().where('payment_id', '=', p.id).execute();
        const key = deps.chains.chainKeyOf(p);
        const shares = sharesOf(deposits, await deps.chains.headOf(key, trx), deps.chains.requiredConfirmations(key));
        await applyShares(trx, p, shares, now);
      }
      if (payments.length < 500) return;
      after = payments.at(-1)?.id ?? after;
    }
  });
}
