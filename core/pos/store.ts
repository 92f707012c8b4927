import type { Kysely } from 'kysely';
import type { Payment } from '../payments/payment.js';
import type { Database } from '../store/schema.js';

/* The pos_sales table: payments taken at the point of sale, one function per store operation. */

type Db = Kysely<Database>;

export async function insertPosSale(
  trx: Db,
  sale: { paymentId: string; merchantId: string; userId: string; tipAmount: string; createdAt: number },
): Promise<void> {
  await trx
    .insertInto('pos_sales')
    .values({
      payment_id: sale.paymentId,
      merchant_id: sale.merchantId,
      user_id: sale.userId,
      tip_amount: sale.tipAmount,
      created_at: sale.createdAt,
    })
    .execute();
}

/** Of these payments, those taken at this merchant's point of sale. */
export async function posPaymentIds(db: Db, merchantId: string, paymentIds: readonly string[]): Promise<Set<string>> {
  if (paymentIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('pos_sales')
    .select('payment_id')
    .where('merchant_id', '=', merchantId)
    .where('payment_id', 'in', paymentIds)
    .execute();
  return new Set(rows.map((r) => r.payment_id));
}

/** A payment taken at this merchant's point of sale since `from` (ms), or undefined. */
export function findPosPayment(db: Db, merchantId: string, paymentId: string, from: number) {
  return db
    .selectFrom('pos_sales')
    .innerJoin('payments', 'payments.id', 'pos_sales.payment_id')
    .selectAll('payments')
    .select('pos_sales.tip_amount')
    .where('pos_sales.merchant_id', '=', merchantId)
    .where('pos_sales.payment_id', '=', paymentId)
    .where('pos_sales.created_at', '>=', from)
    .executeTakeFirst() as Promise<(Payment & { tip_amount: string }) | undefined>;
}

/** The point of sale's payments since `from` (ms), newest first, at most `limit`, with who took each. */
export function listPosSales(db: Db, merchantId: string, from: number, limit: number) {
  return db
    .selectFrom('pos_sales')
    .innerJoin('payments', 'payments.id', 'pos_sales.payment_id')
    .innerJoin('dashboard_users', 'dashboard_users.id', 'pos_sales.user_id')
    .selectAll('payments')
    .select(['pos_sales.tip_amount', 'dashboard_users.email as cashier_email'])
    .where('pos_sales.merchant_id', '=', merchantId)
    .where('pos_sales.created_at', '>=', from)
    .orderBy('pos_sales.created_at', 'desc')
    .limit(limit)
    .execute() as Promise<(Payment & { tip_amount: string; cashier_email: string })[]>;
}

/**
 * Whether a payment is a counter sale whose e-mail is its seller's own address (no customer gave one at the till):
 * the spec's required e-mail is filled with the seller's, and customer mails about it must never reach them.
 */
export async function isSellerAddressedSale(db: Db, paymentId: string, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('pos_sales')
    .innerJoin('dashboard_users', 'dashboard_users.id', 'pos_sales.user_id')
    .select('dashboard_users.email')
    .where('pos_sales.payment_id', '=', paymentId)
    .executeTakeFirst();
  return row !== undefined && row.email.trim().toLowerCase() === email.trim().toLowerCase();
}
