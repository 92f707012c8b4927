import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import type pgTypes from 'pg';
import { SecretColumns } from '../secrets/secret-columns.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';
import { withStoreLock } from './store-lock.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  /**
   * Seals and opens the secret columns of every query of `db` (core/secrets): without its key, loaded by
   * `unlockStore` (core/secrets/unlock.ts), reading or writing a secret throws.
   */
  secrets: SecretColumns;
  /** Connections of the pool: open, idle, and queries waiting for one (SQLite: one connection, never waiting). */
  poolUsage(): { max: number; total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

/**
 * The PostgreSQL driver, loaded on first use: a SQLite store (and the admin CLI on one) never pays for loading it.
 * int8 (bigint) columns hold epoch milliseconds and block heights, all far below 2^53.
 */
let pgModule: typeof pgTypes | undefined;
function loadPg(): typeof pgTypes {
  if (!pgModule) {
    pgModule = createRequire(import.meta.url)('pg') as typeof pgTypes;
    pgModule.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
  }
  return pgModule;
}

/**
 * Opens the store named by a DATABASE_URL: `sqlite:path/to/file.sqlite` (relative to cwd) or `postgres://...`.
 * SQLite runs in WAL mode so readers never block the single writer.
 */
export function openStore(url: string, opts: { poolSize?: number; onPoolError?: (e: Error) => void } = {}): Store {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const pool = new (loadPg().Pool)({ connectionString: url, max: opts.poolSize ?? 10 });
    // An idle client cut by the server (restart, failover) emits 'error' on the pool; unhandled, it would crash the
    // process. The pool drops that client and the next query opens a fresh one.
    pool.on('error', (e) => opts.onPoolError?.(e));
    const secrets = new SecretColumns();
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [secrets] });
    const max = opts.poolSize ?? 10;
    return {
      db,
      dialect: 'postgres',
      secrets,
      poolUsage: () => ({ max, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => db.destroy(),
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
    // Deleted and overwritten content is zeroed, not left in free space: a copy of the file then holds no secret
    // from before encryption at rest (core/secrets), no replaced ciphertext, no deleted session or key hash.
    sqlite.pragma('secure_delete = ON');
    const secrets = new SecretColumns();
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
      plugins: [secrets],
    });
    return {
      db,
      dialect: 'sqlite',
      secrets,
      poolUsage: () => ({ max: 1, total: 1, idle: 1, waiting: 0 }),
      close: () => db.destroy(),
    };
  }
  throw new Error(`DATABASE_URL must start with sqlite: or postgres:// (got "${url.split(':')[0]}:...")`);
}

/**
 * Kysely's SQLite driver prepares every query afresh, and preparing costs more than running an indexed query:
 * statements are reused per SQL text (at most 500, since `IN (...)` lists make many texts). PostgreSQL's driver
 * needs nothing of the kind: the server parses each query text anyway.
 */
function withStatementCache(sqlite: SQLite.Database): { prepare: SQLite.Database['prepare']; close(): void } {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(source: string) {
      let stmt = cache.get(source);
      if (!stmt) {
        stmt = sqlite.prepare(source);
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

/**
 * Brings the schema up to date. Safe to call from several processes: Kysely takes a migration lock on PostgreSQL;
 * on SQLite its lock is a no-op (it assumes one process), so a store lock (store-lock.ts) takes its place.
 */
export async function migrate(store: Store): Promise<void> {
  if (store.dialect === 'sqlite') return withStoreLock(store.db, 'migrate', () => migrateNow(store));
  return migrateNow(store);
}

async function migrateNow(store: Store): Promise<void> {
  const migrator = new Migrator({ db: store.db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(
      `migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
