import type { Kysely } from 'kysely';

/**
 * Selling without code (issue 31):
 * - `payment_links`: a merchant's reusable link: a fixed price or a customer-entered amount between bounds, the
 *   assets offered, limits (payments, end date) and whether it takes payments at all. `token` is the unguessable
 *   part of its public URL (192 random bits); it is kept as is (not hashed) because the URL is meant to be shown
 *   again, printed and shared, and it opens nothing but the link's own form.
 * - `payment_link_payments`: which payment each visit made, so the link lists its payments and the limit counts them.
 * - `pos_sales`: payments taken at the point of sale, by whom and with which tip, so a cashier sees the day's sales.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('price_amount', 'text')
    .addColumn('min_amount', 'text')
    .addColumn('max_amount', 'text')
    .addColumn('price_currency', 'text', (c) => c.notNull())
    .addColumn('currencies', 'text')
    .addColumn('max_payments', 'integer')
    .addColumn('ends_at', 'bigint')
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('payment_links_merchant')
    .on('payment_links')
    .columns(['merchant_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('payment_link_payments')
    .addColumn('payment_id', 'text', (c) => c.primaryKey().references('payments.id'))
    .addColumn('link_id', 'text', (c) => c.notNull().references('payment_links.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('payment_link_payments_link')
    .on('payment_link_payments')
    .columns(['link_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('pos_sales')
    .addColumn('payment_id', 'text', (c) => c.primaryKey().references('payments.id'))
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('dashboard_users.id'))
    .addColumn('tip_amount', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pos_sales_merchant').on('pos_sales').columns(['merchant_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('pos_sales_merchant').ifExists().execute();
  await db.schema.dropTable('pos_sales').ifExists().execute();
  await db.schema.dropIndex('payment_link_payments_link').ifExists().execute();
  await db.schema.dropTable('payment_link_payments').ifExists().execute();
  await db.schema.dropIndex('payment_links_merchant').ifExists().execute();
  await db.schema.dropTable('payment_links').ifExists().execute();
}
