import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * PostgreSQL only: drops the NOTIFY triggers of migration 0005. They served in-memory read caches of payments,
 * merchants and keys, which are gone: every request reads the store, so nothing needs to hear of other processes'
 * writes. (0005 stays as it shipped; migrations are never edited.)
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const table of ['payments', 'merchants', 'api_keys']) {
    await sql`DROP TRIGGER IF EXISTS ${sql.id(`${table}_changed`)} ON ${sql.table(table)}`.execute(db);
  }
  await sql`DROP FUNCTION IF EXISTS notify_store_change()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  const { up: recreate } = await import('./0005-change-notifications.js');
  await recreate(db);
}
