import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Runs `fn` in a transaction: the caller's when `db` is one already (a dashboard change and its audit entry commit
 * together: dashboard-api/audit.ts), else a new one.
 */
export function inTransaction<T>(db: Kysely<Database>, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}
