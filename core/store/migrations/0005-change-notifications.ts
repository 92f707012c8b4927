import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * PostgreSQL only: every committed change to the rows the service caches (payments, merchants, API keys) sends
 * NOTIFY store_changes with the table's name, whichever process or tool made it, so each service process can empty
 * its read caches (core/store/pg-listener.ts). Statement-level triggers: one notification per statement, and
 * PostgreSQL folds identical ones within a transaction. Plain inserts are left out: caches never remember a miss.
 * SQLite needs nothing: `PRAGMA data_version` tells a connection that another one committed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`
    CREATE FUNCTION notify_store_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('store_changes', TG_TABLE_NAME);
      RETURN NULL;
    END $$`.execute(db);
  for (const table of ['payments', 'merchants', 'api_keys']) {
    await sql`
      CREATE TRIGGER ${sql.id(`${table}_changed`)} AFTER UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
      FOR EACH STATEMENT EXECUTE FUNCTION notify_store_change()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const table of ['payments', 'merchants', 'api_keys']) {
    await sql`DROP TRIGGER IF EXISTS ${sql.id(`${table}_changed`)} ON ${sql.table(table)}`.execute(db);
  }
  await sql`DROP FUNCTION IF EXISTS notify_store_change()`.execute(db);
}
