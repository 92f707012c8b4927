import type { Kysely } from 'kysely';

/**
 * Two-factor sign-in for dashboard users (issue 23, item 6):
 * - `dashboard_two_factor`: a user's TOTP secret (in the clear: a TOTP check needs it, so it cannot be hashed; it is
 *   never logged nor shown again after enrolment), `enabled_at` null while enrolment awaits its first code, and the
 *   last time step accepted, so one code is never taken twice.
 * - `dashboard_recovery_codes`: ten one-time codes per user, SHA-256 only.
 * - `dashboard_pending_sign_ins`: the second step of a sign-in whose password was right, SHA-256 of its token,
 *   expiring in minutes.
 * - `merchant_two_factor_requirements`: a row per merchant whose owner requires two-factor of every member.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dashboard_two_factor')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('dashboard_users.id'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('enabled_at', 'bigint')
    .addColumn('last_step', 'bigint')
    .execute();
  await db.schema
    .createTable('dashboard_recovery_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('dashboard_users.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('dashboard_recovery_codes_user')
    .on('dashboard_recovery_codes')
    .column('user_id')
    .execute();
  await db.schema
    .createTable('dashboard_pending_sign_ins')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('dashboard_users.id'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('merchant_two_factor_requirements')
    .addColumn('merchant_id', 'text', (c) => c.primaryKey().references('merchants.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('merchant_two_factor_requirements').ifExists().execute();
  await db.schema.dropTable('dashboard_pending_sign_ins').ifExists().execute();
  await db.schema.dropIndex('dashboard_recovery_codes_user').ifExists().execute();
  await db.schema.dropTable('dashboard_recovery_codes').ifExists().execute();
  await db.schema.dropTable('dashboard_two_factor').ifExists().execute();
}
