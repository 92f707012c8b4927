import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.js';

/** Whether `db` (or a transaction of it) runs on PostgreSQL, for the few statements SQLite has no form of. */
export function isPostgres(db: { getExecutor(): { readonly adapter: object } }): boolean {
  return db.getExecutor().adapter.constructor.name.startsWith('Postgres');
}

/**
 * Makes transactions that name the same `key` take turns until they end (read-then-write steps that two requests
 * must not interleave, such as reading a tip and writing the next block). PostgreSQL runs transactions side by side,
 * so it takes a transaction-scoped advisory lock; SQLite writes one transaction at a time already.
 */
export async function takeTurns(trx: Kysely<Database>, key: string): Promise<void> {
  if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
}
