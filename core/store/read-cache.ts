import type { StoreChanges, WatchedTable } from './changes.js';

/**
 * Rows read on every request (the key behind an API key, a polled payment), kept in memory and emptied whenever
 * a table they come from changes, in this process or another (see changes.ts). Exact, never "fresh enough":
 * - a hit is served only after `StoreChanges.sync()` says other processes' commits have been applied;
 * - a read that overlapped a change does not fill the cache (its row may predate the change);
 * - a miss is never remembered, so an insert can never be hidden behind a cached "not found".
 * Cached values are shared between requests: they are frozen, and callers must treat them as read-only.
 */
export class ReadCache<V extends object> {
  private readonly entries = new Map<string, V>();

  constructor(
    private readonly changes: StoreChanges,
    private readonly tables: readonly WatchedTable[],
    private readonly maxEntries: number,
  ) {
    changes.subscribe((table) => {
      if (tables.includes(table)) this.entries.clear();
    });
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * @param synced the caller vouches that a cache of the same store synced in this request with no I/O since (a
   *   cache hit, or a fill, just before): SQLite's data_version check then runs once per request, not per cache.
   */
  async get(key: string, load: () => Promise<V | undefined>, synced = false): Promise<V | undefined> {
    if (!(synced ? this.changes.watching : this.changes.sync())) return load();
    const hit = this.entries.get(key);
    if (hit) return hit;
    const before = this.changes.generation(this.tables);
    const value = await load();
    // sync() first: a commit by another process seen now bumps the generation too.
    if (value && this.changes.sync() && this.changes.generation(this.tables) === before) {
      // Oldest first out: Map keeps insertion order, so the first key is the least recently filled.
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, Object.freeze(value));
    }
    return value;
  }
}
