import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * A query built and compiled by Kysely once, then run with new parameters. Building and compiling cost more than
 * running a hot indexed query, so the few queries on every request (key lookup, payment read, payment insert)
 * skip it. `build` receives placeholder values; the parameters passed later must follow the same order.
 *
 * @example
 * const byId = prepared((db) => db.selectFrom('payments').selectAll().where('id', '=', '$id'));
 * const rows = await byId(db, ['pay_123']);
 */
export function prepared<R>(
  build: (db: Kysely<Database>) => Compilable<R>,
): (db: Kysely<Database>, parameters: readonly unknown[]) => Promise<R[]> {
  // One compiled form per dialect: the same function may serve a SQLite and a PostgreSQL store in one process.
  const compiled = new WeakMap<object, CompiledQuery<R>>();
  return async (db, parameters) => {
    const adapter = db.getExecutor().adapter;
    let q = compiled.get(adapter.constructor);
    if (!q) {
      q = build(db).compile();
      compiled.set(adapter.constructor, q);
    }
    if (q.parameters.length !== parameters.length)
      throw new Error(`prepared query expects ${q.parameters.length} parameters`);
    const res = await db.executeQuery<R>({ ...q, parameters });
    return res.rows;
  };
}
