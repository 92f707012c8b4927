import type { Kysely } from 'kysely';

/**
 * The merchant dashboard (issue 11): its users, their memberships in merchants, sign-in sessions, one-time
 * password links and sign-in throttling; the last-used time of API keys; and the indexes the dashboard's payment
 * list needs at 100,000 payments (filters by status and asset, search by order id, address and txid).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dashboard_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'bigint')
    .execute();

  await db.schema
    .createTable('dashboard_memberships')
    .addColumn('user_id', 'text', (c) => c.notNull().references('dashboard_users.id'))
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('dashboard_memberships_pk', ['user_id', 'merchant_id'])
    .execute();
  await db.schema
    .createIndex('dashboard_memberships_merchant')
    .on('dashboard_memberships')
    .column('merchant_id')
    .execute();

  await db.schema
    .createTable('dashboard_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('dashboard_users.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dashboard_sessions_user').on('dashboard_sessions').column('user_id').execute();
  await db.schema.createIndex('dashboard_sessions_expires').on('dashboard_sessions').column('expires_at').execute();

  await db.schema
    .createTable('dashboard_password_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('dashboard_users.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('dashboard_password_tokens_user')
    .on('dashboard_password_tokens')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('dashboard_sign_in_failures')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_ends_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('api_keys').addColumn('last_used_at', 'bigint').execute();

  // The payment list's filters and searches, each an index range for one merchant, newest first.
  await db.schema
    .createIndex('payments_merchant_status_created')
    .on('payments')
    .columns(['merchant_id', 'status', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('payments_merchant_asset_created')
    .on('payments')
    .columns(['merchant_id', 'pay_currency', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('payments_merchant_order').on('payments').columns(['merchant_id', 'order_id']).execute();
  await db.schema
    .createIndex('payments_merchant_address')
    .on('payments')
    .columns(['merchant_id', 'pay_address'])
    .execute();
  await db.schema.createIndex('deposits_txid').on('deposits').column('txid').execute();
  await db.schema
    .createIndex('payment_events_payment')
    .on('payment_events')
    .columns(['payment_id', 'sequence'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const i of [
    'payment_events_payment',
    'deposits_txid',
    'payments_merchant_address',
    'payments_merchant_order',
    'payments_merchant_asset_created',
    'payments_merchant_status_created',
  ])
    await db.schema.dropIndex(i).ifExists().execute();
  await db.schema.alterTable('api_keys').dropColumn('last_used_at').execute();
  for (const t of [
    'dashboard_sign_in_failures',
    'dashboard_password_tokens',
    'dashboard_sessions',
    'dashboard_memberships',
    'dashboard_users',
  ])
    await db.schema.dropTable(t).ifExists().execute();
}
