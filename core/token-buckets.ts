/**
 * Token buckets by key, in memory and per process: each key may take `rate` tokens per `periodMs`, with a burst of
 * the same size. The one piece behind the APIs' request limits (api-kit/rate-limit.ts) and the gap-limit
 * allowance of new Bitcoin-family addresses (core/addresses/gap.ts).
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Takes one token of `key`'s bucket. Returns 0 when it was there, else the seconds (at least 1) until one is due;
   * a rate of 0 never refills, and answers one period.
   */
  take(key: string, rate: number, periodMs: number): number {
    const t = this.now();
    const b = this.buckets.get(key) ?? { tokens: rate, at: t };
    b.tokens = Math.min(rate, b.tokens + ((t - b.at) / periodMs) * rate);
    b.at = t;
    this.buckets.set(key, b);
    if (this.buckets.size > 100_000) this.prune(t, periodMs);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    const waitMs = rate > 0 ? ((1 - b.tokens) / rate) * periodMs : periodMs;
    return Math.max(1, Math.ceil(waitMs / 1000));
  }

  /** A bucket left alone for a whole period is full again, exactly like one never used: forget it. */
  private prune(t: number, periodMs: number): void {
    for (const [k, b] of this.buckets) if (t - b.at > periodMs) this.buckets.delete(k);
  }
}
