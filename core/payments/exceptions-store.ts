import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import type { Payment } from './payment.js';

/*
 * The payment_exceptions table (migration 0024): a payment's USD quote when priced in another currency, and the
 * merchant's resolutions (accepted as paid, rest asked until). Read by the lifecycle's caller (recompute.ts).
 */

type Db = Kysely<Database>;

export interface PaymentException {
  usdRate: string | null;
  acceptedAt: number | null;
  restUntil: number | null;
}

export async function exceptionOf(db: Db, paymentId: string): Promise<PaymentException> {
  const row = await db
    .selectFrom('payment_exceptions')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .executeTakeFirst();
  return { usdRate: row?.usd_rate ?? null, acceptedAt: row?.accepted_at ?? null, restUntil: row?.rest_until ?? null };
}

/** The USD rate a payment is worth at: its own `rate` when priced in USD, else the quote kept at creation. */
export function usdRateOf(p: Pick<Payment, 'price_currency' | 'rate'>, e: PaymentException): string | null {
  return p.price_currency === 'USD' ? p.rate : e.usdRate;
}

/** Keeps the USD quote of a payment priced in another currency (its creation's transaction). */
export async function recordUsdQuote(db: Db, paymentId: string, usdRate: string): Promise<void> {
  await db
    .insertInto('payment_exceptions')
    .values({ payment_id: paymentId, usd_rate: usdRate, accepted_at: null, rest_until: null })
    .execute();
}

/** Upserts one resolution field of a payment's row. */
export async function setException(
  db: Db,
  paymentId: string,
  patch: { accepted_at: number } | { rest_until: number },
): Promise<void> {
  await db
    .insertInto('payment_exceptions')
    .values({ payment_id: paymentId, usd_rate: null, accepted_at: null, rest_until: null, ...patch })
    .onConflict((oc) => oc.column('payment_id').doUpdateSet(patch))
    .execute();
}

/**
 * Deposits of a payment first seen by its new `valid_until` count again (the merchant extended the window over
 * them): a remainder sent after the first deadline but before the merchant asked for it pays like one on time.
 */
export async function unflagLateDeposits(db: Db, paymentId: string, validUntil: number, now: number): Promise<void> {
  await db
    .updateTable('deposits')
    .set({ late: 0, updated_at: now })
    .where('payment_id', '=', paymentId)
    .where('late', '=', 1)
    .where('first_seen_at', '<=', validUntil)
    .execute();
}
