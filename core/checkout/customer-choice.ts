import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

/*
 * Hosted payments whose merchant let the customer choose the asset (table customer_currency_choices, migration
 * 0023): a dashboard payment link made without one starts in the first asset the merchant takes, and its page
 * offers the picker.
 */

/** Marks a payment as the customer's to choose the asset of. Pass the transaction that creates the payment. */
export async function letCustomerChoose(trx: Kysely<Database>, paymentId: string, now: number): Promise<void> {
  await trx.insertInto('customer_currency_choices').values({ payment_id: paymentId, created_at: now }).execute();
}

/** Whether the customer chooses the asset of this payment. */
export async function customerChooses(db: Kysely<Database>, paymentId: string): Promise<boolean> {
  const row = await db
    .selectFrom('customer_currency_choices')
    .select('payment_id')
    .where('payment_id', '=', paymentId)
    .executeTakeFirst();
  return row !== undefined;
}
