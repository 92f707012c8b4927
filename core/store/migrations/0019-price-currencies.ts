import { type Kysely, sql } from 'kysely';

/**
 * Prices in the merchant's currency (issue 31, item 3): each merchant's default price currency, an ISO 4217 code
 * from core/money/fiat.ts. Existing merchants (and any created without one) price in USD, as before. Payments
 * already carry `price_currency` (0001), so their rows need nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('merchants')
    .addColumn('default_currency', 'text', (c) => c.notNull().defaultTo(sql`'USD'`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('merchants').dropColumn('default_currency').execute();
}
