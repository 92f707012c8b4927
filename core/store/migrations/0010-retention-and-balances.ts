import { type Kysely, sql } from 'kysely';

/**
 * Webhook retention (core/webhooks/retention.ts) deletes delivered rows oldest first: a partial index of the
 * succeeded rows by delivery time keeps each batch to the rows it deletes, however large the log grew.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('webhook_deliveries_delivered')
    .on('webhook_deliveries')
    .column('delivered_at')
    .where(sql.ref('status'), '=', 'succeeded')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_delivered').ifExists().execute();
}
