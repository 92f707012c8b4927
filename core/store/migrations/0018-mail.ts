import type { Kysely } from 'kysely';

/**
 * E-mail (issue 29):
 * - `mail_outbox`: every mail, written in the transaction of the change that causes it, delivered by leased
 *   workers (core/mail/dispatcher.ts). `message_id` is fixed at enqueue so a resend after a crash carries the same
 *   Message-ID. `dedupe_key` (unique when set) makes "one receipt per payment" hold even when two processes race.
 * - `mail_attempts`: each attempt's answer from the relay, for the owner's mail log.
 * - `merchant_mail_settings`: sender name, reply-to and which customer mails go out (receipts on by default).
 * - `payment_mail_locales`: the checkout locale a customer chose a payment in, for the mails about it.
 * - `dashboard_known_clients`: client addresses (SHA-256) a user signed in from, so a new one earns a notice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.references('merchants.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('from_name', 'text')
    .addColumn('reply_to', 'text')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text')
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('dedupe_key', 'text', (c) => c.unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('last_code', 'integer')
    .addColumn('last_response', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .execute();
  await db.schema.createIndex('mail_outbox_due').on('mail_outbox').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('mail_outbox_merchant').on('mail_outbox').columns(['merchant_id', 'id']).execute();
  await db.schema.createIndex('mail_outbox_to').on('mail_outbox').columns(['to_address', 'created_at']).execute();
  await db.schema
    .createTable('mail_attempts')
    .addColumn('mail_id', 'text', (c) => c.notNull().references('mail_outbox.id'))
    .addColumn('attempt_no', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('code', 'integer')
    .addColumn('response', 'text')
    .addPrimaryKeyConstraint('mail_attempts_pk', ['mail_id', 'attempt_no'])
    .execute();
  await db.schema
    .createTable('merchant_mail_settings')
    .addColumn('merchant_id', 'text', (c) => c.primaryKey().references('merchants.id'))
    .addColumn('sender_name', 'text')
    .addColumn('reply_to', 'text')
    .addColumn('receipts', 'integer', (c) => c.notNull())
    .addColumn('underpaid', 'integer', (c) => c.notNull())
    .addColumn('expired_partly_paid', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('payment_mail_locales')
    .addColumn('payment_id', 'text', (c) => c.primaryKey().references('payments.id'))
    .addColumn('locale', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('dashboard_known_clients')
    .addColumn('user_id', 'text', (c) => c.notNull().references('dashboard_users.id'))
    .addColumn('address_hash', 'text', (c) => c.notNull())
    .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('dashboard_known_clients_pk', ['user_id', 'address_hash'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dashboard_known_clients').ifExists().execute();
  await db.schema.dropTable('payment_mail_locales').ifExists().execute();
  await db.schema.dropTable('merchant_mail_settings').ifExists().execute();
  await db.schema.dropTable('mail_attempts').ifExists().execute();
  await db.schema.dropIndex('mail_outbox_to').ifExists().execute();
  await db.schema.dropIndex('mail_outbox_merchant').ifExists().execute();
  await db.schema.dropIndex('mail_outbox_due').ifExists().execute();
  await db.schema.dropTable('mail_outbox').ifExists().execute();
}
