import type { Kysely } from 'kysely';
import { getAddress, isAddress } from 'viem';
import { newestFirstPage } from '../store/cursor.js';
import { isPostgres } from '../store/dialect.js';
import type { Database } from '../store/schema.js';
import type { Payment } from './payment.js';

/*
 * The payments table: every read, insert, lock and state write of a payment is one function here, so the rest of
 * the service (the APIs, the watcher, the expiry sweep) never writes SQL against it.
 */

type Db = Kysely<Database>;

/** A payment by id, whoever's. */
export function findPayment(db: Db, id: string): Promise<Payment | undefined> {
  return db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A merchant's payment; another merchant's payment reads exactly like a missing one, so ids leak nothing. */
export function findMerchantPayment(db: Db, merchantId: string, id: string): Promise<Payment | undefined> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('id', '=', id)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
}

/**
 * Reads a payment for a change in the caller's transaction. PostgreSQL locks the row so concurrent watchers, sweeps
 * and refunds serialise per payment; SQLite has a single writer, which does the same for the whole store.
 */
export function lockPayment(trx: Db, id: string): Promise<Payment | undefined> {
  const q = trx.selectFrom('payments').selectAll().where('id', '=', id);
  return (isPostgres(trx) ? q.forUpdate() : q).executeTakeFirst();
}

/** Inserts a payment, or several in one statement (the benchmark seeds 100,000; keep batches under ~500 rows). */
export async function insertPayment(trx: Db, p: Payment | readonly Payment[]): Promise<void> {
  await trx.insertInto('payments').values(p).execute();
}

/** The fields a state change writes (core/payments/recompute.ts `writeChange`). */
export type PaymentState = Pick<
  Payment,
  'status' | 'status_detail' | 'actually_paid_units' | 'confirmed_at' | 'sequence' | 'updated_at'
>;

/**
 * Writes a new state over the one read at `fromSequence`. Returns false when another writer got there first (the
 * optimistic guard: a concurrent change is never overwritten, the caller re-reads instead).
 */
export async function writePaymentState(
  trx: Db,
  id: string,
  fromSequence: number,
  state: PaymentState,
): Promise<boolean> {
  const res = await trx
    .updateTable('payments')
    .set(state)
    .where('id', '=', id)
    .where('sequence', '=', fromSequence)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Ids of waiting payments whose window closed before `now`, oldest deadline first. */
export async function overduePaymentIds(db: Db, now: number, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('payments')
    .select('id')
    .where('status', '=', 'waiting')
    .where('valid_until', '<', now)
    .orderBy('valid_until')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** What the watcher needs to match a transfer to a payment. */
export type PaymentTarget = Pick<Payment, 'id' | 'pay_address' | 'extra_id' | 'valid_until'>;

/**
 * Payments of one network and mode paid at any of `addresses`: an indexed lookup (payments_address), so matching a
 * block's transfers costs what the block holds, never what is open.
 */
export async function paymentsAt(
  db: Db,
  network: string,
  mode: 'test' | 'live',
  addresses: string[],
): Promise<PaymentTarget[]> {
  const out: PaymentTarget[] = [];
  // In chunks: SQLite and PostgreSQL bound the number of parameters of one statement.
  for (let i = 0; i < addresses.length; i += 500) {
    out.push(
      ...(await db
        .selectFrom('payments')
        .select(['id', 'pay_address', 'extra_id', 'valid_until'])
        .where('network', '=', network)
        .where('mode', '=', mode)
        .where('pay_address', 'in', addresses.slice(i, i + 500))
        .execute()),
    );
  }
  return out;
}

export interface ListFilter {
  status?: string | undefined;
  /** Asset code (pay_currency). */
  asset?: string | undefined;
  createdFrom?: number | undefined;
  createdTo?: number | undefined;
  /** Exact payment id, order id, pay address or deposit txid (searchPaymentIds). */
  search?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

/** A merchant's payments, newest first, in keyset pages (core/store/cursor.ts). */
export async function listPayments(
  db: Db,
  merchantId: string,
  f: ListFilter,
): Promise<{ payments: Payment[]; nextCursor: string | null }> {
  let q = db.selectFrom('payments').selectAll().where('merchant_id', '=', merchantId);
  if (f.status) q = q.where('status', '=', f.status);
  if (f.asset) q = q.where('pay_currency', '=', f.asset);
  if (f.createdFrom !== undefined) q = q.where('created_at', '>=', f.createdFrom);
  if (f.createdTo !== undefined) q = q.where('created_at', '<', f.createdTo);
  if (f.search !== undefined) {
    const ids = await searchPaymentIds(db, merchantId, f.search);
    if (ids.length === 0) return { payments: [], nextCursor: null };
    q = q.where('id', 'in', ids);
  }
  const { rows, nextCursor } = await newestFirstPage(q, f.cursor, f.limit);
  return { payments: rows, nextCursor };
}

/** At most this many payments match one search (an address or txid is shared by a handful at most). */
const MAX_SEARCH_MATCHES = 500;

/**
 * Ids of a merchant's payments that `text` names exactly: as payment id, order id, pay address or the txid of one
 * of its deposits. Each is an indexed lookup (payments_merchant_order, payments_merchant_address, deposits_txid:
 * migration 0009), so a search costs the same at 100 payments as at 100,000. EVM addresses and hex txids match
 * whatever their letter case (addresses are stored EIP-55, txids lower case).
 */
export async function searchPaymentIds(db: Db, merchantId: string, text: string): Promise<string[]> {
  const s = text.trim();
  if (s === '') return [];
  const addresses = isAddress(s, { strict: false }) ? [...new Set([s, getAddress(s)])] : [s];
  const txids = /^(0x)?[0-9a-fA-F]{64}$/.test(s) ? [...new Set([s, s.toLowerCase()])] : [s];
  const rows = await db
    .selectFrom('payments')
    .select('id')
    .where('merchant_id', '=', merchantId)
    .where('id', '=', s)
    .union(db.selectFrom('payments').select('id').where('merchant_id', '=', merchantId).where('order_id', '=', s))
    .union(
      db
        .selectFrom('payments')
        .select('id')
        .where('merchant_id', '=', merchantId)
        .where('pay_address', 'in', addresses),
    )
    .union(
      db
        .selectFrom('deposits')
        .innerJoin('payments', 'payments.id', 'deposits.payment_id')
        .select('payments.id')
        .where('deposits.txid', 'in', txids)
        .where('payments.merchant_id', '=', merchantId),
    )
    .limit(MAX_SEARCH_MATCHES)
    .execute();
  return rows.map((r) => r.id);
}
