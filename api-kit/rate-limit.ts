import { AppError } from '../core/errors.js';

/**
 * A token bucket per key: `perSecond` requests per second with a burst of the same size. In memory, per process:
 * several processes each enforce the limit (documented in README).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Throws a 429 AppError with `retryAfter` when `key` is over its limit: the limiter's rate, times `scale` for a
   * bucket shared by many clients (a public key). A limiter of 0 per second turns limits off.
   */
  take(key: string, scale = 1): void {
    if (this.perSecond <= 0) return;
    const rate = this.perSecond * scale;
    const t = this.now();
    const b = this.buckets.get(key) ?? { tokens: rate, at: t };
    b.tokens = Math.min(rate, b.tokens + ((t - b.at) / 1000) * rate);
    b.at = t;
    if (b.tokens < 1) {
      this.buckets.set(key, b);
      const wait = Math.max(1, Math.ceil((1 - b.tokens) / rate));
      throw new AppError('RATE_LIMITED', `Too many requests: limit is ${rate} per second`, { retryAfter: wait });
    }
    b.tokens -= 1;
    this.buckets.set(key, b);
    if (this.buckets.size > 100_000) this.prune(t);
  }

  private prune(t: number): void {
    for (const [k, b] of this.buckets) if (t - b.at > 10_000) this.buckets.delete(k);
  }
}
