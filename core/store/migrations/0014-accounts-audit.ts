import type { Kysely } from 'kysely';

/**
 * Dashboard accounts and audit (issue 23):
 * - `audit_log`: who did what to a merchant and when, from which client address. Written in the transaction of the
 *   change it records (core/audit/audit-log.ts), never holding a secret; pruned by age (AUDIT_RETENTION_DAYS).
 * - `api_keys.label`: the merchant's name for a key; `api_keys.expires_at`: the end of a rotated key's grace period
 *   (null: no end), after which the key is refused though still marked active.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('actor_user_id', 'text')
    .addColumn('actor_email', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('client_address', 'text')
    .execute();
  // The page lists one merchant's entries newest first (keyset by created_at, id); retention deletes by age.
  await db.schema
    .createIndex('audit_log_merchant_at')
    .on('audit_log')
    .columns(['merchant_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('audit_log_at').on('audit_log').column('created_at').execute();

  await db.schema.alterTable('api_keys').addColumn('label', 'text').execute();
  await db.schema.alterTable('api_keys').addColumn('expires_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('expires_at').execute();
  await db.schema.alterTable('api_keys').dropColumn('label').execute();
  await db.schema.dropIndex('audit_log_at').ifExists().execute();
  await db.schema.dropIndex('audit_log_merchant_at').ifExists().execute();
  await db.schema.dropTable('audit_log').ifExists().execute();
}
