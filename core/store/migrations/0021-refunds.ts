import type { Kysely } from 'kysely';

/**
 * Refunds (issue 30):
 * - `refunds`: money going back to a customer, in the paid asset's base units. The service never signs: a refund is
 *   sent by the merchant's wallet and seen on chain by the watchers (`txid`, `block_*`). `sequence` orders its
 *   `refund.updated` webhooks as a payment's orders its own. The claim link's token is stored as SHA-256 only.
 * - `refund_totals`: per payment, the units held by refunds that are not cancelled. Creating a refund moves it with one
 *   conditional update (compare and set on the previous value), so refunds created at the same moment never add up
 *   to more than was received, on SQLite and PostgreSQL alike, without a lock held across the check.
 * - `refund_transfers`: every transfer seen to an open refund's address (the exact one completes it, another amount
 *   is only recorded), with its block so a reorg rolls it back like a deposit.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('refunds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('payment_id', 'text', (c) => c.notNull().references('payments.id'))
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('asset', 'text', (c) => c.notNull())
    .addColumn('decimals', 'integer', (c) => c.notNull())
    .addColumn('amount_units', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('address_source', 'text')
    .addColumn('address_confirmed_at', 'bigint')
    .addColumn('claim_token_hash', 'text')
    .addColumn('claim_expires_at', 'bigint')
    .addColumn('reason', 'text')
    .addColumn('txid', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addColumn('confirmed_at', 'bigint')
    .addColumn('cancelled_at', 'bigint')
    .execute();
  await db.schema.createIndex('refunds_payment').on('refunds').columns(['payment_id', 'created_at']).execute();
  await db.schema.createIndex('refunds_merchant').on('refunds').columns(['merchant_id', 'created_at']).execute();
  // The watchers look up open refunds by destination, as they look up payments by address.
  await db.schema.createIndex('refunds_address').on('refunds').columns(['network', 'mode', 'address']).execute();
  await db.schema.createIndex('refunds_claim').on('refunds').column('claim_token_hash').unique().execute();
  await db.schema
    .createTable('refund_totals')
    .addColumn('payment_id', 'text', (c) => c.primaryKey().references('payments.id'))
    .addColumn('held_units', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('refund_transfers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('refund_id', 'text', (c) => c.notNull().references('refunds.id'))
    .addColumn('chain', 'text', (c) => c.notNull())
    .addColumn('txid', 'text', (c) => c.notNull())
    .addColumn('log_index', 'integer', (c) => c.notNull())
    .addColumn('asset', 'text', (c) => c.notNull())
    .addColumn('amount_units', 'text', (c) => c.notNull())
    .addColumn('exact', 'integer', (c) => c.notNull())
    .addColumn('block_height', 'bigint')
    .addColumn('block_hash', 'text')
    .addColumn('removed', 'integer', (c) => c.notNull())
    .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('refund_transfers_tx')
    .on('refund_transfers')
    .columns(['chain', 'txid', 'log_index', 'refund_id'])
    .unique()
    .execute();
  await db.schema.createIndex('refund_transfers_refund').on('refund_transfers').column('refund_id').execute();
  await db.schema
    .createIndex('refund_transfers_height')
    .on('refund_transfers')
    .columns(['chain', 'block_height'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('refund_transfers').ifExists().execute();
  await db.schema.dropTable('refund_totals').ifExists().execute();
  await db.schema.dropTable('refunds').ifExists().execute();
}
