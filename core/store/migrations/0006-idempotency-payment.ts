import type { Kysely } from 'kysely';

/**
 * The payment id an Idempotency-Key claim will create, chosen before the work starts. If the process dies after
 * claiming, a retry finds the payment (created or not) by this id instead of waiting out the key's 24 hours.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('payment_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').dropColumn('payment_id').execute();
}
