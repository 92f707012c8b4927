import { type Kysely, sql } from 'kysely';

/**
 * The dispatcher's claim query reads due pending deliveries in `next_attempt_at` order. Delivered and failed rows
 * are kept for the delivery log and never pruned, so they grow without bound; once PostgreSQL had table statistics
 * it planned that query as a sequential scan of the whole table on every claim (measured: 6.6 ms per claim with
 * 5,000 delivered and 5,000 pending). An index of the pending rows only keeps each claim to the pending backlog.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('webhook_deliveries_pending')
    .on('webhook_deliveries')
    .column('next_attempt_at')
    .where(sql.ref('status'), '=', 'pending')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_pending').ifExists().execute();
}
