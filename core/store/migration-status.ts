import { type Kysely, sql } from 'kysely';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

/**
 * Migrations this code knows that the store has not applied yet (Kysely records applied ones in kysely_migration).
 * A store that was never migrated has no such table: every migration is pending.
 */
export async function pendingMigrations(db: Kysely<Database>): Promise<string[]> {
  let applied: Set<string>;
  try {
    const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    applied = new Set(rows.rows.map((r) => r.name));
  } catch {
    applied = new Set();
  }
  return Object.keys(migrations)
    .sort()
    .filter((name) => !applied.has(name));
}
