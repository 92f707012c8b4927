import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { StoreChanges } from './changes.js';
import { migrations } from './migrations/index.js';
import { PgChangeListener } from './pg-listener.js';
import type { Database } from './schema.js';
import { watchedDialect } from './watched-dialect.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Every write to a cached table, from this process or (once `watchOtherProcesses` ran) any other. */
  changes: StoreChanges;
  /**
   * Starts seeing other processes' writes, which read caches need before they trust anything: on SQLite a check of
   * `PRAGMA data_version` before each cached read; on PostgreSQL a LISTEN connection. `onLost` hears its failures.
   */
  watchOtherProcesses(onLost?: (e: Error) => void): Promise<void>;
  close(): Promise<void>;
}

// int8 (bigint) columns hold epoch milliseconds and block heights, all far below 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

/**
 * Opens the store named by a DATABASE_URL: `sqlite:path/to/file.sqlite` (relative to cwd) or `postgres://...`.
 * SQLite runs in WAL mode so readers never block the single writer.
 */
export function openStore(url: string, opts: { poolSize?: number; onPoolError?: (e: Error) => void } = {}): Store {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const pool = new pg.Pool({ connectionString: url, max: opts.poolSize ?? 10 });
    // An idle client cut by the server (restart, failover) emits 'error' on the pool; unhandled, it would crash the
    // process. The pool drops that client and the next query opens a fresh one.
    pool.on('error', (e) => opts.onPoolError?.(e));
    const changes = new StoreChanges();
    const db = new Kysely<Database>({ dialect: watchedDialect(new PostgresDialect({ pool }), changes) });
    let listener: PgChangeListener | null = null;
    return {
      db,
      dialect: 'postgres',
      changes,
      async watchOtherProcesses(onLost = () => {}) {
        listener ??= new PgChangeListener(url, changes, onLost);
        await listener.start();
      },
      async close() {
        await listener?.stop();
        await db.destroy();
      },
    };
  }
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    const path = file === ':memory:' ? file : resolve(file);
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const sqlite = new SQLite(path);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    // Counts commits by other connections (never this one's own): changed means another process wrote.
    const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
    let seenVersion = dataVersion.get();
    const changes = new StoreChanges(() => {
      const v = dataVersion.get();
      if (v === seenVersion) return false;
      seenVersion = v;
      return true;
    });
    const db = new Kysely<Database>({
      dialect: watchedDialect(new SqliteDialect({ database: withStatementCache(sqlite) }), changes),
    });
    return {
      db,
      dialect: 'sqlite',
      changes,
      async watchOtherProcesses() {
        changes.setWatching(true);
      },
      async close() {
        changes.setWatching(false); // the data_version check must not run on a closed connection
        await db.destroy();
      },
    };
  }
  throw new Error(`DATABASE_URL must start with sqlite: or postgres:// (got "${url.split(':')[0]}:...")`);
}

/**
 * Kysely's SQLite driver prepares every query afresh; preparing costs more than running a hot query, so prepared
 * statements are reused per SQL text (bounded, since `IN (...)` lists make many texts).
 */
const MAX_CACHED_SQL = 2048;

function withStatementCache(sqlite: SQLite.Database): { prepare: SQLite.Database['prepare']; close(): void } {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(source: string) {
      let stmt = cache.get(source);
      if (!stmt) {
        stmt = sqlite.prepare(source);
        // Long texts are multi-row inserts of group commits: each row count is its own text and a prepared statement
        // holds memory per parameter, so caching them would pin megabytes for little gain (they amortise anyway).
        if (source.length > MAX_CACHED_SQL) return stmt;
        if (cache.size >= 500) cache.clear();
        cache.set(source, stmt);
      }
      return stmt;
    },
    close() {
      cache.clear();
      sqlite.close();
    },
  } as { prepare: SQLite.Database['prepare']; close(): void };
}

/** Brings the schema up to date. Safe to call from several processes: Kysely takes a migration lock. */
export async function migrate(store: Store): Promise<void> {
  const migrator = new Migrator({ db: store.db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(
      `migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
