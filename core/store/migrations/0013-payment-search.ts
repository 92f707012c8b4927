import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * The dashboard's search and overview (issue 23) at 100,000 payments:
 * - `payments_merchant_email`: a customer's e-mail, whatever its letter case.
 * - `payments_id_bytes` (PostgreSQL): a payment id's displayed start is a range in byte order; the primary key's
 *   index follows the database's collation, which under a language locale is not byte order. SQLite compares ids
 *   with BINARY, so its primary key serves the range already.
 * - `payments_merchant_created_figures`: the overview's sums per day, status and asset read from the index alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index payments_merchant_email on payments (merchant_id, lower(customer_email))`.execute(db);
  if (isPostgres(db)) await sql`create index payments_id_bytes on payments (id collate "C")`.execute(db);
  await db.schema
    .createIndex('payments_merchant_created_figures')
    .on('payments')
    .columns(['merchant_id', 'created_at', 'status', 'pay_currency', 'actually_paid_units', 'price_amount'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const i of ['payments_merchant_created_figures', 'payments_id_bytes', 'payments_merchant_email'])
    await db.schema.dropIndex(i).ifExists().execute();
}
