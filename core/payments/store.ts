import { type Kysely, sql } from 'kysely';
import { getAddress, isAddress } from 'viem';
import { usdToCents } from '../money/decimal.js';
import { keysetPage } from '../store/cursor.js';
import { isPostgres } from '../store/dialect.js';
import type { Database } from '../store/schema.js';
import type { Payment } from './payment.js';
import type { PaymentStatus } from './status.js';

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

/**
 * A payment's price in units of 10^-digits, in SQL with integers only: the price is exact decimal text with at most
 * its currency's minor digits ("20", "20.5", "20.05"; at most 3 for any currency), so no float ever orders or sums
 * it. `digits` 2 gives cents of a USD price; 3 fits every currency's price (core/money/fiat.ts).
 */
export function priceCentsSql(db: Db, digits = 2) {
  const price = sql.ref('price_amount');
  const dot = isPostgres(db) ? sql`strpos(${price}, '.')` : sql`instr(${price}, '.')`;
  const scale = sql.lit(10 ** digits);
  return sql<string>`(case when ${dot} = 0 then cast(${price} as bigint) * ${scale} else cast(substr(${price}, 1, ${dot} - 1) as bigint) * ${scale} + cast(substr(substr(${price}, ${dot} + 1) || '000', 1, ${sql.lit(digits)}) as bigint) end)`;
}

/** Orders of the payment list: by creation or by price, each either way. */
export const paymentSorts = ['newest', 'oldest', 'amount_desc', 'amount_asc'] as const;
export type PaymentSort = (typeof paymentSorts)[number];

export interface ListFilter {
  status?: PaymentStatus | undefined;
  /** Asset code (pay_currency). */
  asset?: string | undefined;
  createdFrom?: number | undefined;
  createdTo?: number | undefined;
  /** Payment id or its displayed start, order id, e-mail, pay address or deposit txid (searchPaymentIds). */
  search?: string | undefined;
  /** @default 'newest' */
  sort?: PaymentSort | undefined;
  limit: number;
  cursor?: string | undefined;
}

/**
 * A merchant's payments, newest first or in another order (`sort`), in keyset pages (core/store/cursor.ts). By
 * price, the order is that of the USD price in cents (every price is USD), ties newest id first.
 */
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
  const sort = f.sort ?? 'newest';
  const byAmount = sort === 'amount_desc' || sort === 'amount_asc';
  const { rows, nextCursor } = await keysetPage(
    q,
    byAmount
      ? { key: priceCentsSql(db), keyOf: (p) => Number(usdToCents(p.price_amount)), descending: sort === 'amount_desc' }
      : { key: sql`created_at`, keyOf: (p) => p.created_at, descending: sort === 'newest' },
    f.cursor,
    f.limit,
  );
  return { payments: rows, nextCursor };
}

/** At most this many payments match one search (an address or txid is shared by a handful at most). */
const MAX_SEARCH_MATCHES = 500;

/**
 * A payment id as the dashboard shows it: its start (`pay_x5ar`), or its start and end around an ellipsis
 * (`pay_x5ar…rqkqn69z`, as format.ts `short` prints it, or with three dots as typed). Ids are lower-case Crockford
 * base32 (core/ids.ts), so a typed upper-case prefix still matches.
 */
export function displayedIdParts(text: string): { prefix: string; suffix: string } | null {
  const m = /^([a-z]{2,5}_[0-9a-z]{2,})(?:(?:…|\.\.\.)([0-9a-z]*))?$/.exec(text.toLowerCase());
  return m?.[1] ? { prefix: m[1], suffix: m[2] ?? '' } : null;
}

/**
 * Ids of a merchant's payments that `text` names: a payment id or the start of one as displayed
 * (displayedIdParts), an order id, a customer e-mail (any letter case), a pay address or the txid of one of its
 * deposits. Each is an indexed lookup (payments_merchant_order, payments_merchant_address, deposits_txid: migration
 * 0009; payments_merchant_email and, on PostgreSQL, payments_id_bytes: migration 0013), so a search costs the same
 * at 100 payments as at 100,000. EVM addresses and hex txids match whatever their letter case (addresses are stored
 * EIP-55, txids lower case).
 */
export async function searchPaymentIds(db: Db, merchantId: string, text: string): Promise<string[]> {
  const s = text.trim();
  if (s === '') return [];
  const addresses = isAddress(s, { strict: false }) ? [...new Set([s, getAddress(s)])] : [s];
  const txids = /^(0x)?[0-9a-fA-F]{64}$/.test(s) ? [...new Set([s, s.toLowerCase()])] : [s];
  const mine = () => db.selectFrom('payments').select('id').where('merchant_id', '=', merchantId);
  let q = mine()
    .where('id', '=', s)
    .union(mine().where('order_id', '=', s))
    .union(mine().where('pay_address', 'in', addresses))
    .union(
      db
        .selectFrom('deposits')
        .innerJoin('payments', 'payments.id', 'deposits.payment_id')
        .select('payments.id')
        .where('deposits.txid', 'in', txids)
        .where('payments.merchant_id', '=', merchantId),
    );
  if (s.includes('@')) q = q.union(mine().where(sql<string>`lower(customer_email)`, '=', s.toLowerCase()));
  const shown = displayedIdParts(s);
  if (shown) {
    // A range over the ids in byte order: LIKE would read `_` as a wildcard and, on PostgreSQL, use no index
    // under a language collation; "C" compares bytes, as SQLite's BINARY does.
    const id = isPostgres(db) ? sql<string>`id collate "C"` : sql<string>`id`;
    q = q.union(
      mine()
        .where(id, '>=', shown.prefix)
        .where(id, '<', `${shown.prefix}~`)
        .where(sql<string>`substr(id, length(id) - ${sql.lit(shown.suffix.length)} + 1)`, '=', shown.suffix),
    );
  }
  const rows = await q.limit(MAX_SEARCH_MATCHES).execute();
  return rows.map((r) => r.id);
}

/**
 * Moves a payment's deadlines ("ask for the rest", core/payments/ask-rest.ts) over the state read at `p.sequence`,
 * bumping `sequence` like every visible change. Returns the payment as written, or undefined if another writer won.
 */
export async function writePaymentDeadline(
  trx: Db,
  p: Payment,
  expiresAt: number,
  validUntil: number,
  now: number,
): Promise<Payment | undefined> {
  const state = { expires_at: expiresAt, valid_until: validUntil, sequence: p.sequence + 1, updated_at: now };
  const res = await trx
    .updateTable('payments')
    .set(state)
    .where('id', '=', p.id)
    .where('sequence', '=', p.sequence)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1 ? { ...p, ...state } : undefined;
}
