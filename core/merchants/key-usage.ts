import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import { toError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Database } from '../store/schema.js';

/** A key's last-used time is recorded at most this often: its resolution. */
export const KEY_USAGE_RESOLUTION_MS = 60_000;

/**
 * When each API key was last used (`api_keys.last_used_at`), without a store write per request: a request only
 * notes its key in memory; a key whose time was written less than a minute ago is not written again, and the
 * others are written together, off the request's path, a second later. The time shown is thus up to a minute old.
 */
export class KeyUsage {
  readonly #written = new Map<string, number>();
  readonly #pending = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** Delay before noted keys are written. @default 1000 */
    private readonly flushDelayMs = 1000,
  ) {}

  /** A request authenticated with key `keyId`. Costs a map lookup; never waits for the store. */
  seen(keyId: string): void {
    const now = this.clock.now();
    const last = this.#written.get(keyId);
    if (last !== undefined && now - last < KEY_USAGE_RESOLUTION_MS) return;
    this.#written.set(keyId, now);
    this.#pending.set(keyId, now);
    if (this.#written.size > 100_000) this.#written.clear();
    this.#timer ??= setTimeout(() => void this.flush(), this.flushDelayMs);
    this.#timer.unref();
  }

  /** Writes the noted times now (the timer does this; a stopping service calls it last). */
  async flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = [...this.#pending];
    this.#pending.clear();
    try {
      for (const [id, at] of batch)
        await this.db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
    } catch (e) {
      // A lost usage time is not worth a failed request or a crash: the next use notes it again.
      for (const [id] of batch) this.#written.delete(id);
      this.logger.warn('could not record API key usage', { error: toError(e).message });
    }
  }
}
