import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import type { Refund, RefundTransfer } from './refund.js';

/** One store operation per function: the refunds tables (migration 0021-refunds). */

export async function insertRefund(trx: Kysely<Database>, r: Refund): Promise<void> {
  await trx.insertInto('refunds').values(r).execute();
}

/** A merchant's refund; another merchant's reads exactly like a missing one. */
export function findMerchantRefund(db: Kysely<Database>, merchantId: string, id: string): Promise<Refund | undefined> {
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('id', '=', id)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
}

export function findRefund(db: Kysely<Database>, id: string): Promise<Refund | undefined> {
  return db.selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A payment's refunds, oldest first. */
export function refundsOfPayment(db: Kysely<Database>, paymentId: string): Promise<Refund[]> {
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Transfers seen to the given refunds' addresses, oldest first. */
export function transfersOfRefunds(db: Kysely<Database>, refundIds: readonly string[]): Promise<RefundTransfer[]> {
  if (refundIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('refund_transfers')
    .selectAll()
    .where('refund_id', 'in', refundIds)
    .orderBy('first_seen_at')
    .orderBy('id')
    .execute();
}

/**
 * The units a payment's refunds hold, creating its row at 0 first: the row must exist before it is read, so that two
 * first refunds of a payment race on the same compare-and-set (PostgreSQL makes the second insert wait for the first).
 */
export async function heldUnits(trx: Kysely<Database>, paymentId: string, now: number): Promise<bigint> {
  await trx
    .insertInto('refund_totals')
    .values({ payment_id: paymentId, held_units: '0', updated_at: now })
    .onConflict((oc) => oc.column('payment_id').doNothing())
    .execute();
  const row = await trx
    .selectFrom('refund_totals')
    .select('held_units')
    .where('payment_id', '=', paymentId)
    .executeTakeFirstOrThrow();
  return BigInt(row.held_units);
}

/**
 * Moves a payment's held units from `from` to `to` only if they still are `from`: the one conditional update that
 * keeps refunds created at the same moment within what was received. On PostgreSQL a concurrent writer waits for
 * ours, then finds the value changed and updates nothing; SQLite has one writer. False: retry from a fresh read.
 */
export async function compareAndSetHeld(
  trx: Kysely<Database>,
  paymentId: string,
  from: bigint,
  to: bigint,
  now: number,
): Promise<boolean> {
  const r = await trx
    .updateTable('refund_totals')
    .set({ held_units: to.toString(), updated_at: now })
    .where('payment_id', '=', paymentId)
    .where('held_units', '=', from.toString())
    .executeTakeFirst();
  return r.numUpdatedRows === 1n;
}

/** The fields a refund's change writes. */
export type RefundPatch = Partial<
  Pick<
    Refund,
    | 'status'
    | 'address'
    | 'address_source'
    | 'address_confirmed_at'
    | 'claim_token_hash'
    | 'claim_expires_at'
    | 'txid'
    | 'sent_at'
    | 'confirmed_at'
    | 'cancelled_at'
  >
>;

/** Writes a change only if the refund is still at `sequence` (no lost update); false when it moved meanwhile. */
export async function writeRefundState(
  trx: Kysely<Database>,
  id: string,
  sequence: number,
  patch: RefundPatch & { sequence: number; updated_at: number },
): Promise<boolean> {
  const r = await trx
    .updateTable('refunds')
    .set(patch)
    .where('id', '=', id)
    .where('sequence', '=', sequence)
    .executeTakeFirst();
  return r.numUpdatedRows === 1n;
}
