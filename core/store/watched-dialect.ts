import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import { type StoreChanges, type WatchedTable, writtenTables } from './changes.js';

/**
 * A Kysely dialect that reports every completed write to a watched table, whatever built the query (query
 * builder, prepared statement, raw SQL), so no write path can forget to invalidate a cache.
 *
 * A change is reported when its statement completes and, inside a transaction, again when the transaction
 * commits: until then another connection still reads the old row, and a cache filled from that read in between
 * must be emptied once the new row becomes visible.
 */
export function watchedDialect(inner: Dialect, changes: StoreChanges): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createDriver: () => new WatchedDriver(inner.createDriver(), changes),
  };
}

class WatchedConnection implements DatabaseConnection {
  /** Tables written by the open transaction, reported again at its commit; null outside a transaction. */
  pending: Set<WatchedTable> | null = null;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly changes: StoreChanges,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.inner.executeQuery<R>(query);
    const tables = writtenTables(query.sql);
    for (const t of tables) {
      this.pending?.add(t);
      this.changes.changed(t);
    }
    return result;
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class WatchedDriver implements Driver {
  // Kysely hands back the connection object it acquired; drivers reuse theirs, so one wrapper per inner connection.
  private readonly wrappers = new WeakMap<DatabaseConnection, WatchedConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly changes: StoreChanges,
  ) {}

  // Both of Kysely's drivers have savepoints; they run on the inner connection.
  savepoint(c: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.savepointMethod('savepoint')(unwrap(c), name, compile);
  }

  rollbackToSavepoint(c: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.savepointMethod('rollbackToSavepoint')(unwrap(c), name, compile);
  }

  releaseSavepoint(c: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.savepointMethod('releaseSavepoint')(unwrap(c), name, compile);
  }

  private savepointMethod(name: 'savepoint' | 'rollbackToSavepoint' | 'releaseSavepoint') {
    const fn = this.inner[name];
    if (!fn) throw new Error(`this database driver has no ${name}`);
    return fn.bind(this.inner);
  }

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const c = await this.inner.acquireConnection();
    let w = this.wrappers.get(c);
    if (!w) {
      w = new WatchedConnection(c, this.changes);
      this.wrappers.set(c, w);
    }
    return w;
  }

  async beginTransaction(c: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await this.inner.beginTransaction(unwrap(c), settings);
    (c as WatchedConnection).pending = new Set();
  }

  async commitTransaction(c: DatabaseConnection): Promise<void> {
    const w = c as WatchedConnection;
    try {
      await this.inner.commitTransaction(w.inner);
    } finally {
      // Reported even when the commit fails: whether it took effect is then unknown, and an extra report is harmless.
      const pending = w.pending;
      w.pending = null;
      for (const t of pending ?? []) this.changes.changed(t);
    }
  }

  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    (c as WatchedConnection).pending = null;
    await this.inner.rollbackTransaction(unwrap(c));
  }

  releaseConnection(c: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(unwrap(c));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

function unwrap(c: DatabaseConnection): DatabaseConnection {
  return c instanceof WatchedConnection ? c.inner : c;
}
