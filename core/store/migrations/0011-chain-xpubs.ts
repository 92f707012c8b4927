import { type Kysely, sql } from 'kysely';

/**
 * One extended public key per merchant and chain, each with its own address counter (issue 14). Bitcoin-family
 * wallets stop scanning after a run of unused receive addresses (the gap limit): a counter per key keeps each
 * chain's payments on contiguous indexes, where the one merchant-wide counter spread them across chains.
 * - `merchant_xpubs.family` becomes `chain`: `evm` (one key for every EVM network: their addresses are alike) or a
 *   Bitcoin-family network (`btc`, `ltc`, `doge`).
 * - `merchant_xpubs.next_index` takes over `merchants.next_address_index` (which only the EVM key used).
 * - `payments_merchant_network_index` lets the gap check look at the last few indexes of one merchant and chain.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('merchant_xpubs').renameColumn('family', 'chain').execute();
  await db.schema
    .alterTable('merchant_xpubs')
    .addColumn('next_index', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update merchant_xpubs set next_index = (select m.next_address_index from merchants m where m.id = merchant_xpubs.merchant_id) where chain = 'evm'`.execute(
    db,
  );
  await db.schema.alterTable('merchants').dropColumn('next_address_index').execute();
  await db.schema
    .createIndex('payments_merchant_network_index')
    .on('payments')
    .columns(['merchant_id', 'network', 'address_index'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('payments_merchant_network_index').ifExists().execute();
  await db.schema
    .alterTable('merchants')
    .addColumn('next_address_index', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update merchants set next_address_index = coalesce((select x.next_index from merchant_xpubs x where x.merchant_id = merchants.id and x.chain = 'evm'), 0)`.execute(
    db,
  );
  await sql`delete from merchant_xpubs where chain <> 'evm'`.execute(db);
  await db.schema.alterTable('merchant_xpubs').dropColumn('next_index').execute();
  await db.schema.alterTable('merchant_xpubs').renameColumn('chain', 'family').execute();
}
