import type { Kysely } from 'kysely';

/**
 * Drop-in checkout sessions (created server-side from a `dk_` key; read only with their token, stored hashed) and
 * a small key/value table for service-wide settings the drop-in needs across restarts (the hosted-page signing
 * secret, the demo storefront's public key).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dropin_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('price_amount', 'text', (c) => c.notNull())
    .addColumn('price_currency', 'text', (c) => c.notNull())
    .addColumn('crypto_currency', 'text')
    .addColumn('customer_email', 'text', (c) => c.notNull())
    .addColumn('customer_name', 'text')
    .addColumn('reference', 'text')
    .addColumn('origin', 'text')
    .addColumn('payment_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dropin_sessions_payment').on('dropin_sessions').column('payment_id').execute();

  await db.schema
    .createTable('dropin_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dropin_settings').ifExists().execute();
  await db.schema.dropTable('dropin_sessions').ifExists().execute();
}
