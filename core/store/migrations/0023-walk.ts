import type { Kysely } from 'kysely';

/**
 * `customer_currency_choices`: a row per hosted payment whose merchant let the customer choose the asset (a payment
 * link made in the dashboard without one, issue 27). Its hosted page offers the picker; the payment a choice creates
 * carries the row on, so the page keeps offering it. A table of its own rather than a payments column: most payments
 * never have one, and the payment row's shape stays what the API reads.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('customer_currency_choices')
    .addColumn('payment_id', 'text', (c) => c.primaryKey().references('payments.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('customer_currency_choices').execute();
}
