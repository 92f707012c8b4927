import type { Kysely } from 'kysely';

/**
 * Extended public keys of live merchants, one per chain family. The unique key on (family, xpub) keeps two
 * merchants from sharing addresses, which would let one merchant's customer pay another's payment.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('merchant_xpubs')
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('family', 'text', (c) => c.notNull())
    .addColumn('xpub', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('merchant_xpubs_pk', ['merchant_id', 'family'])
    .addUniqueConstraint('merchant_xpubs_key', ['family', 'xpub'])
    .execute();
  // The watcher asks, every block, for deposits within the confirmation window of one chain: with this index
  // that costs the deposits of the last few blocks, not every deposit the chain ever had.
  await db.schema
    .createIndex('deposits_chain_height')
    .ifNotExists()
    .on('deposits')
    .columns(['network', 'block_height'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('deposits_chain_height').ifExists().execute();
  await db.schema.dropTable('merchant_xpubs').ifExists().execute();
}
