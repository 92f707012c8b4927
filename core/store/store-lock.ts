import { type Kysely, sql } from 'kysely';
import { secretToken } from '../ids.js';
import type { Database } from './schema.js';

/** How long a holder may keep a store lock before another process may take it over (a holder that died). */
const LEASE_MS = 30_000;

type LockTables = {
  store_locks: { name: string; holder: string; until_ms: number };
};

/**
 * Runs `fn` while holding a named lock kept in the store itself, so processes sharing one store (a SQLite file or a
 * PostgreSQL database) take turns: "migrate" and the first start's "is the store empty? then create the demo
 * merchant" must not run in two processes at once. The lock table lives outside the migrations (like Kysely's own
 * kysely_migration_lock) because migrating is one of the things it guards. A holder that died leaves its row
 * behind; it is taken over once its lease (30 s) has passed.
 *
 * @example
 * await withStoreLock(db, 'first-start', () => seedIfEmpty(db));
 */
export async function withStoreLock<T>(
  store: Kysely<Database>,
  name: string,
  fn: () => Promise<T>,
  now: () => number = Date.now,
): Promise<T> {
  const db = store.withTables<LockTables>();
  await ensureLockTable(db);
  const holder = secretToken(8);
  for (;;) {
    const r = await db
      .insertInto('store_locks')
      .values({ name, holder, until_ms: now() + LEASE_MS })
      .onConflict((oc) => oc.column('name').doNothing())
      .executeTakeFirst();
    if (Number(r.numInsertedOrUpdatedRows ?? 0) === 1) break;
    // Only a lease that has run out is removed, by whoever sees it first; the insert above then decides.
    await db.deleteFrom('store_locks').where('name', '=', name).where('until_ms', '<', now()).execute();
    await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
  }
  try {
    return await fn();
  } finally {
    await db.deleteFrom('store_locks').where('name', '=', name).where('holder', '=', holder).execute();
  }
}

async function ensureLockTable(db: Kysely<Database & LockTables>): Promise<void> {
  const create = () =>
    sql`create table if not exists store_locks (name varchar(64) primary key, holder varchar(64) not null,
      until_ms bigint not null)`.execute(db);
  try {
    await create();
  } catch {
    // PostgreSQL: two "create table if not exists" at the same moment can collide on the catalog; one won.
    await create();
  }
}
