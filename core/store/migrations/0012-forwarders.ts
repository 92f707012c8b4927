import type { Kysely } from 'kysely';

/**
 * EVM forwarders (issue 18): a live merchant's payout address per chain family, one forwarder per payment that pays
 * to one, and the relayer's sweep transactions.
 * - `merchant_payouts`: where forwarders send funds (`chain` is `evm`: one address for every EVM network).
 * - `evm_forwarders`: what the address of a payment commits to (factory, payout, salt), so it can be deployed and
 *   flushed by anyone at any time, whatever the merchant's payout is now; and how far its deposits are swept
 *   (`swept_through`: the highest deposit block known to be flushed).
 * - `evm_sweeps`: a relayer transaction, signed and stored before it is sent, so a restart re-sends the same
 *   transaction instead of paying for a second one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('merchant_payouts')
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('chain', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('merchant_payouts_pk', ['merchant_id', 'chain'])
    .execute();
  await db.schema
    .createTable('evm_sweeps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('sender', 'text', (c) => c.notNull())
    .addColumn('nonce', 'integer', (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('raw_tx', 'text', (c) => c.notNull())
    .addColumn('forwarders', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('gas_used', 'text')
    .addColumn('fee_wei', 'text')
    .addColumn('block_height', 'bigint')
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('evm_sweeps_status').on('evm_sweeps').columns(['network', 'status']).execute();
  await db.schema
    .createTable('evm_forwarders')
    .addColumn('payment_id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('factory', 'text', (c) => c.notNull())
    .addColumn('payout', 'text', (c) => c.notNull())
    .addColumn('salt', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('swept_through', 'bigint')
    .addColumn('sweep_tx', 'text')
    .addColumn('swept_at', 'bigint')
    .addColumn('pending_sweep_id', 'text')
    .addColumn('sweep_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_sweep_at', 'bigint')
    .addColumn('sweep_error', 'text')
    .addUniqueConstraint('evm_forwarders_address', ['network', 'address'])
    .execute();
  await db.schema.createIndex('evm_forwarders_merchant').on('evm_forwarders').columns(['merchant_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('evm_forwarders').ifExists().execute();
  await db.schema.dropTable('evm_sweeps').ifExists().execute();
  await db.schema.dropTable('merchant_payouts').ifExists().execute();
}
