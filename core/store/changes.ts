/**
 * What in-memory read caches need to stay exact: a signal whenever a row they may hold stops being current.
 *
 * Writes made through this process's store are seen as they complete (the store's driver reports them, see
 * watched-dialect.ts); writes made by other processes (the admin CLI, a second service) are seen through the
 * store itself: SQLite's `PRAGMA data_version`, checked before every cached read, and PostgreSQL's NOTIFY from
 * triggers (migration 0005), pushed to a listening connection. While that listener is down, caches are bypassed.
 */

/** Tables whose rows are cached. A cache says which of them it depends on. */
export const watchedTables = ['payments', 'merchants', 'api_keys'] as const;
export type WatchedTable = (typeof watchedTables)[number];

export class StoreChanges {
  private readonly generations: Record<WatchedTable, number> = { payments: 0, merchants: 0, api_keys: 0 };
  private readonly subscribers = new Set<(table: WatchedTable) => void>();
  private watchingOthers = false;

  /** @param checkOthers synchronous check for other processes' commits (SQLite); returns true when there were any. */
  constructor(private readonly checkOthers: () => boolean = () => false) {}

  /**
   * True when a cached row may be trusted now: other processes' changes are being seen, and any seen so far have
   * been applied (SQLite's check runs here, so a cache hit never predates a commit another process made).
   */
  sync(): boolean {
    if (!this.watchingOthers) return false;
    if (this.checkOthers()) this.changedAll();
    return true;
  }

  /** Whether changes made elsewhere are being seen; set by the store (SQLite always, PostgreSQL while listening). */
  get watching(): boolean {
    return this.watchingOthers;
  }

  setWatching(on: boolean): void {
    if (this.watchingOthers === on) return;
    this.watchingOthers = on;
    // Whatever happened while nobody was listening is unknown: nothing cached before may be trusted afterwards.
    this.changedAll();
  }

  /** A counter per table; a read that started before a change must not fill a cache after it. */
  generation(tables: readonly WatchedTable[]): number {
    let g = 0;
    for (const t of tables) g += this.generations[t];
    return g;
  }

  changed(table: WatchedTable): void {
    this.generations[table] += 1;
    for (const fn of this.subscribers) fn(table);
  }

  changedAll(): void {
    for (const t of watchedTables) this.changed(t);
  }

  subscribe(fn: (table: WatchedTable) => void): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }
}

const WRITE_TARGET =
  /\b(?:update|delete\s+from|truncate(?:\s+table)?|insert\s+into|replace\s+into)\s+"?(payments|merchants|api_keys)"?(?=[\s("]|$)/gi;
const UPSERT = /\bdo\s+update\b|^\s*(?:insert\s+or\s+replace|replace)\b/i;

/**
 * The watched tables a statement can change rows of, from its SQL text (Kysely's compiled queries and raw SQL
 * alike). Plain inserts change no existing row, and caches never remember a miss, so they count only when they
 * upsert. Reads cost one character check.
 */
export function writtenTables(sqlText: string): WatchedTable[] {
  const first = sqlText.trimStart().slice(0, 6).toLowerCase();
  if (first === 'select' || first.startsWith('pragma') || first.startsWith('begin') || first.startsWith('commit'))
    return [];
  const isInsert = first === 'insert' || first.startsWith('replac');
  if (isInsert && !UPSERT.test(sqlText)) return [];
  const found = new Set<WatchedTable>();
  for (const m of sqlText.matchAll(WRITE_TARGET)) {
    const verb = (m[0] as string).slice(0, 6).toLowerCase();
    // In an upsert the inserted table is the one updated; an `insert into` elsewhere in a plain statement is not.
    if ((verb === 'insert' || verb === 'replac') && !isInsert) continue;
    found.add((m[1] as string).toLowerCase() as WatchedTable);
  }
  return [...found];
}
