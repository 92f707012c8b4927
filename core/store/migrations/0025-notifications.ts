import type { Kysely } from 'kysely';

/**
 * Merchant notifications to dashboard members (issue 29, item 4):
 * - `member_notification_prefs`: what one member (user in one merchant) wants mailed, and whether at once or in a
 *   daily digest. No row: nothing is mailed (members opt in on the dashboard's Notifications section).
 * - `notification_digest_items`: events waiting for a member's next digest; `digest_day` is set when one took them.
 * - `notification_digests`: one row per member and UTC day, the unique key that makes several processes on one
 *   PostgreSQL send one digest.
 * - `notification_episodes`: a condition that persists (prices stale, relayer low, endpoint failing) is mailed when
 *   its row is inserted, once per episode; the row goes when the condition clears.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('member_notification_prefs')
    .addColumn('user_id', 'text', (c) => c.notNull().references('dashboard_users.id'))
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('delivery', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('member_notification_prefs_pk', ['user_id', 'merchant_id'])
    .execute();
  await db.schema
    .createTable('notification_digest_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('line', 'text', (c) => c.notNull())
    .addColumn('link', 'text')
    .addColumn('dedupe_key', 'text', (c) => c.unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('digest_day', 'text')
    .execute();
  await db.schema
    .createIndex('notification_digest_items_due')
    .on('notification_digest_items')
    .columns(['digest_day', 'created_at'])
    .execute();
  await db.schema
    .createTable('notification_digests')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_digests_pk', ['user_id', 'merchant_id', 'day'])
    .execute();
  await db.schema
    .createTable('notification_episodes')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('opened_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notification_episodes').ifExists().execute();
  await db.schema.dropTable('notification_digests').ifExists().execute();
  await db.schema.dropIndex('notification_digest_items_due').ifExists().execute();
  await db.schema.dropTable('notification_digest_items').ifExists().execute();
  await db.schema.dropTable('member_notification_prefs').ifExists().execute();
}
