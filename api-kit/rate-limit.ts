import { AppError } from '../core/errors.js';
import { TokenBuckets } from '../core/token-buckets.js';

/**
 * A token bucket per key: `perSecond` requests per second with a burst of the same size. In memory, per process:
 * several processes each enforce the limit (documented in README).
 */
export class RateLimiter {
  private readonly buckets: TokenBuckets;

  constructor(
    private readonly perSecond: number,
    now: () => number = Date.now,
  ) {
    this.buckets = new TokenBuckets(now);
  }

  /**
   * Throws a 429 AppError with `retryAfter` when `key` is over its limit: the limiter's rate, times `scale` for a
   * bucket shared by many clients (a public key). A limiter of 0 per second turns limits off.
   */
  take(key: string, scale = 1): void {
    if (this.perSecond <= 0) return;
    const rate = this.perSecond * scale;
    const wait = this.buckets.take(key, rate, 1000);
    if (wait > 0)
      throw new AppError('RATE_LIMITED', `Too many requests: limit is ${rate} per second`, { retryAfter: wait });
  }
}
