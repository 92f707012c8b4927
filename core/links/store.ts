import type { Kysely, Selectable } from 'kysely';
import type { Payment } from '../payments/payment.js';
import { priceCentsSql } from '../payments/store.js';
import { newestFirstPage } from '../store/cursor.js';
import { isPostgres } from '../store/dialect.js';
import type { Database } from '../store/schema.js';
import type { PaymentLinkTable } from '../store/schema-links.js';

/*
 * The payment_links and payment_link_payments tables: every read and write of a reusable link is one function here.
 */

type Db = Kysely<Database>;
export type PaymentLink = Selectable<PaymentLinkTable>;

export async function insertLink(db: Db, link: PaymentLink): Promise<void> {
  await db.insertInto('payment_links').values(link).execute();
}

/** A merchant's link; another merchant's link reads exactly like a missing one. */
export function findMerchantLink(db: Db, merchantId: string, id: string): Promise<PaymentLink | undefined> {
  return db
    .selectFrom('payment_links')
    .selectAll()
    .where('id', '=', id)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
}

/** The link a public URL names. */
export function findLinkByToken(db: Db, token: string): Promise<PaymentLink | undefined> {
  return db.selectFrom('payment_links').selectAll().where('token', '=', token).executeTakeFirst();
}

/** A merchant's links, newest first, in keyset pages. */
export async function listLinks(
  db: Db,
  merchantId: string,
  page: { limit: number; cursor?: string | undefined },
): Promise<{ links: PaymentLink[]; nextCursor: string | null }> {
  const q = db.selectFrom('payment_links').selectAll().where('merchant_id', '=', merchantId);
  const { rows, nextCursor } = await newestFirstPage(q, page.cursor, page.limit);
  return { links: rows, nextCursor };
}

export type LinkChanges = Partial<
  Pick<
    PaymentLink,
    | 'name'
    | 'price_amount'
    | 'min_amount'
    | 'max_amount'
    | 'price_currency'
    | 'currencies'
    | 'max_payments'
    | 'ends_at'
    | 'active'
  >
>;

export async function updateLink(db: Db, id: string, changes: LinkChanges, now: number): Promise<void> {
  await db
    .updateTable('payment_links')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/**
 * Locks the link for the caller's transaction and reads it again: PostgreSQL locks the row (FOR UPDATE), SQLite's
 * single writer serialises the whole store once this transaction has written. The harmless write comes first so a
 * SQLite transaction holds the write lock before it counts, as PostgreSQL holds the row lock.
 */
export async function lockLink(trx: Db, id: string, now: number): Promise<PaymentLink | undefined> {
  await trx.updateTable('payment_links').set({ updated_at: now }).where('id', '=', id).execute();
  const q = trx.selectFrom('payment_links').selectAll().where('id', '=', id);
  return (isPostgres(trx) ? q.forUpdate() : q).executeTakeFirst();
}

/** Payments of a link that still hold a place under its limit: all but those that expired or failed unpaid. */
export async function countHeldPlaces(trx: Db, linkId: string): Promise<number> {
  const row = await trx
    .selectFrom('payment_link_payments')
    .innerJoin('payments', 'payments.id', 'payment_link_payments.payment_id')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('payment_link_payments.link_id', '=', linkId)
    .where('payments.status', 'not in', ['expired', 'failed'])
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insertLinkPayment(trx: Db, linkId: string, paymentId: string, now: number): Promise<void> {
  await trx
    .insertInto('payment_link_payments')
    .values({ link_id: linkId, payment_id: paymentId, created_at: now })
    .execute();
}

/** The reusable link a payment was made through, if any. */
export function linkOfPayment(db: Db, paymentId: string): Promise<PaymentLink | undefined> {
  return db
    .selectFrom('payment_link_payments')
    .innerJoin('payment_links', 'payment_links.id', 'payment_link_payments.link_id')
    .selectAll('payment_links')
    .where('payment_link_payments.payment_id', '=', paymentId)
    .executeTakeFirst();
}

/** A link's payments, newest first, in keyset pages. */
export async function listLinkPayments(
  db: Db,
  linkId: string,
  page: { limit: number; cursor?: string | undefined },
): Promise<{ payments: Payment[]; nextCursor: string | null }> {
  const q = db
    .selectFrom('payments')
    .selectAll('payments')
    .where('payments.id', 'in', (eb) =>
      eb.selectFrom('payment_link_payments').select('payment_id').where('link_id', '=', linkId),
    );
  const { rows, nextCursor } = await newestFirstPage(q, page.cursor, page.limit);
  return { payments: rows, nextCursor };
}

/**
 * Per status and price currency: how many payments of the link and the sum of their prices in thousandths (enough
 * for every currency's minor units), summed in SQL with integers only (core/payments/store.ts priceCentsSql), so the
 * totals cost one grouped read however busy.
 */
export async function linkTotalsByStatus(db: Db, linkId: string) {
  const rows = await db
    .selectFrom('payment_link_payments')
    .innerJoin('payments', 'payments.id', 'payment_link_payments.payment_id')
    .select((eb) => [
      'payments.status',
      'payments.price_currency',
      eb.fn.countAll<string | number>().as('n'),
      eb.fn.sum<string | number>(priceCentsSql(db, 3)).as('thousandths'),
    ])
    .where('payment_link_payments.link_id', '=', linkId)
    .groupBy(['payments.status', 'payments.price_currency'])
    .execute();
  return rows.map((r) => ({
    status: r.status,
    priceCurrency: r.price_currency,
    count: Number(r.n),
    thousandths: BigInt(r.thousandths ?? 0),
  }));
}
