import type { Clock } from '../clock.js';
import type { KeyMatch } from './merchants.js';

/**
 * The one read cache of the service: presented API keys (by hash) and the merchant behind each, since every request
 * of both APIs starts with that lookup. Exact for writes made through this process: every key or merchant write
 * passes the cache and empties it (core/merchants/merchants.ts). Writes by another process (the admin CLI, a second
 * service on the same store) are seen within `ttlMs`: an entry is never served older than that. Misses are not
 * remembered, so a new key works at once everywhere.
 */
export class KeyCache {
  readonly #entries = new Map<string, { value: KeyMatch; at: number }>();

  constructor(
    private readonly clock: Clock,
    /** Longest a change made by another process can go unseen. @default 1000 */
    readonly ttlMs = 1000,
    private readonly maxEntries = 10_000,
  ) {}

  async get(keyHash: string, load: () => Promise<KeyMatch | null>): Promise<KeyMatch | null> {
    const now = this.clock.now();
    const hit = this.#entries.get(keyHash);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    const value = await load();
    if (value) {
      // Oldest first out: Map keeps insertion order.
      if (this.#entries.size >= this.maxEntries) this.#entries.delete(this.#entries.keys().next().value as string);
      this.#entries.delete(keyHash);
      this.#entries.set(keyHash, { value: Object.freeze(value), at: now });
    } else {
      this.#entries.delete(keyHash);
    }
    return value;
  }

  /** Forgets everything: a key or merchant changed. */
  invalidate(): void {
    this.#entries.clear();
  }
}
