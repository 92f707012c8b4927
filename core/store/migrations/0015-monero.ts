import type { Kysely } from 'kysely';

/**
 * Monero (issue 22): a merchant's Monero keys are a row of `merchant_xpubs` with `chain` `xmr`, `xpub` the primary
 * address and `next_index` its subaddress counter (account 0), so the address allocator and the gap warning serve it
 * like any other chain. The private view key needs its own column: it is a secret (never shown after it is set),
 * unlike every other row's public key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('merchant_xpubs').addColumn('view_key', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db
    .deleteFrom('merchant_xpubs' as never)
    .where('chain' as never, '=', 'xmr' as never)
    .execute();
  await db.schema.alterTable('merchant_xpubs').dropColumn('view_key').execute();
}
