import { type Kysely, sql } from 'kysely';

/**
 * Payment exceptions (issue 30 item 5):
 * - `merchants.underpaid_tolerance_usd`: the accepted shortfall as an absolute USD amount (decimal text, at most 2
 *   decimals), beside the basis points of `underpaid_tolerance_bps`; '0' is none.
 * - `payment_exceptions`: a row per payment the merchant resolved by hand, or priced in another currency than USD.
 *   `usd_rate` is the payment's own USD quote taken at creation (USD-priced payments have it in `rate`), so a USD
 *   tolerance converts with the quote the customer was given, never with today's rate. `accepted_at` records "accept
 *   as paid" (the lifecycle keeps such a payment finished); `rest_until` is the deadline of "ask for the rest". A
 *   table of its own: most payments never have one, and the payment row keeps the shape the API reads.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('merchants')
    .addColumn('underpaid_tolerance_usd', 'text', (c) => c.notNull().defaultTo(sql`'0'`))
    .execute();
  await db.schema
    .createTable('payment_exceptions')
    .addColumn('payment_id', 'text', (c) => c.primaryKey().references('payments.id'))
    .addColumn('usd_rate', 'text')
    .addColumn('accepted_at', 'bigint')
    .addColumn('rest_until', 'bigint')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payment_exceptions').execute();
  await db.schema.alterTable('merchants').dropColumn('underpaid_tolerance_usd').execute();
}
