import { type Kysely, sql } from 'kysely';

/**
 * Webhook retention (core/webhooks/retention.ts) deletes delivered rows oldest first: a partial index of the
 * succeeded rows by delivery time keeps each batch to the rows it deletes, however large the log grew.
 *
 * Balance totals (core/payments/balance-totals.ts): each payment's share per asset and the merchant's totals, kept
 * in the transactions that change them, so GET /balances reads one row per asset. Amounts are base units as text
 * (wei exceed 64 bits). Existing stores are backfilled by the first service start (it needs the configured chains'
 * confirmation counts, which this migration does not know).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('webhook_deliveries_delivered')
    .on('webhook_deliveries')
    .column('delivered_at')
    .where(sql.ref('status'), '=', 'succeeded')
    .execute();

  await db.schema
    .createTable('balance_shares')
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('asset', 'text', (c) => c.notNull())
    .addColumn('confirmed_units', 'text', (c) => c.notNull())
    .addColumn('confirmed_late_units', 'text', (c) => c.notNull())
    .addColumn('pending_units', 'text', (c) => c.notNull())
    .addColumn('counted_units', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('balance_shares_pk', ['payment_id', 'asset'])
    .execute();

  await db.schema
    .createTable('merchant_balances')
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('asset', 'text', (c) => c.notNull())
    .addColumn('amount_units', 'text', (c) => c.notNull())
    .addColumn('pending_units', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('merchant_balances_pk', ['merchant_id', 'asset'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('merchant_balances').ifExists().execute();
  await db.schema.dropTable('balance_shares').ifExists().execute();
  await db.schema.dropIndex('webhook_deliveries_delivered').ifExists().execute();
}
