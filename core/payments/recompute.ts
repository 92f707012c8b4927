import type { Kysely } from 'kysely';
import { isPostgres } from '../store/dialect.js';
import type { Database } from '../store/schema.js';
import { insertPaymentEvent } from './events.js';
import { derivePaymentState } from './lifecycle.js';
import type { Payment } from './payment.js';

export interface ChainView {
  /** Current head height of the payment's chain, or null when nothing was observed yet. */
  /** Reads through `db` (the caller's transaction: SQLite has one connection, so a second one would wait forever). */
  headOf(chainKey: string, db: Kysely<Database>): Promise<number | null>;
  requiredConfirmations(chainKey: string): number;
  chainKeyOf(p: Payment): string;
}

/**
 * Re-derives one payment from its deposits and writes the change, bumping `sequence` and writing the outbox
 * event in the caller's transaction. Returns the updated payment when anything changed, else null.
 */
export async function recomputePayment(
  trx: Kysely<Database>,
  paymentId: string,
  now: number,
  chains: ChainView,
): Promise<Payment | null> {
  let q = trx.selectFrom('payments').selectAll().where('id', '=', paymentId);
  // PostgreSQL: lock the row so concurrent watchers and sweeps serialise per payment (SQLite has one writer).
  if (isPostgres(trx)) q = q.forUpdate();
  const p = await q.executeTakeFirst();
  if (!p) return null;
  const [merchant, deposits] = await Promise.all([
    trx.selectFrom('merchants').select('underpaid_tolerance_bps').where('id', '=', p.merchant_id).executeTakeFirst(),
    trx.selectFrom('deposits').selectAll().where('payment_id', '=', paymentId).execute(),
  ]);
  const key = chains.chainKeyOf(p);
  const head = await chains.headOf(key, trx);
  const required = chains.requiredConfirmations(key);
  const next = derivePaymentState(
    {
      status: p.status,
      payCurrency: p.pay_currency,
      payAmountUnits: BigInt(p.pay_amount_units),
      validUntil: p.valid_until,
      confirmedAt: p.confirmed_at,
      underpaidToleranceBps: merchant?.underpaid_tolerance_bps ?? 0,
    },
    deposits.map((d) => ({
      asset: d.asset,
      amountUnits: BigInt(d.amount_units),
      confirmations: d.block_height === null || head === null ? 0 : Math.max(0, head - d.block_height + 1),
      late: d.late === 1,
      removed: d.removed === 1,
    })),
    now,
    required,
  );
  const paid = next.actuallyPaidUnits.toString();
  if (
    next.status === p.status &&
    next.statusDetail === p.status_detail &&
    paid === p.actually_paid_units &&
    next.confirmedAt === p.confirmed_at
  ) {
    return null;
  }
  return writeChange(
    trx,
    p,
    {
      status: next.status,
      status_detail: next.statusDetail,
      actually_paid_units: paid,
      confirmed_at: next.confirmedAt,
    },
    now,
  );
}

/** The one place a payment's visible state changes: bump sequence, write the row and its event together. */
export async function writeChange(
  trx: Kysely<Database>,
  p: Payment,
  patch: Pick<Payment, 'status' | 'status_detail' | 'actually_paid_units' | 'confirmed_at'>,
  now: number,
): Promise<Payment> {
  const updated: Payment = { ...p, ...patch, sequence: p.sequence + 1, updated_at: now };
  const res = await trx
    .updateTable('payments')
    .set({ ...patch, sequence: updated.sequence, updated_at: now })
    .where('id', '=', p.id)
    .where('sequence', '=', p.sequence) // optimistic guard: a concurrent writer makes this a no-op, not a lost update
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw new Error(`payment ${p.id} changed concurrently`);
  await insertPaymentEvent(trx, updated, now);
  return updated;
}
