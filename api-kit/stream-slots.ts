import { AppError } from '../core/errors.js';

/**
 * Counts open event streams per key (a checkout, a dashboard session, a client address); `take` refuses past a
 * limit with a 429, the returned function gives the places back. Each stream holds a connection and some memory,
 * so a client opening hundreds must be told no.
 *
 * @example const release = slots.take([[`session:${id}`, 5], [`ip:${addr}`, 50]], 'poll GET /sessions/{token}');
 */
export class StreamSlots {
  private readonly open = new Map<string, number>();

  take(slots: [key: string, max: number][], instead: string): () => void {
    for (const [key, max] of slots) {
      if ((this.open.get(key) ?? 0) >= max) {
        throw new AppError('RATE_LIMITED', `Too many open event streams (at most ${max}); close one, or ${instead}`, {
          retryAfter: 5,
        });
      }
    }
    for (const [key] of slots) this.open.set(key, (this.open.get(key) ?? 0) + 1);
    return () => {
      for (const [key] of slots) {
        const n = (this.open.get(key) ?? 1) - 1;
        if (n <= 0) this.open.delete(key);
        else this.open.set(key, n);
      }
    };
  }
}
