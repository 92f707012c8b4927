/**
 * docs/architecture.md retry schedule: at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, each +-20% jitter.
 * Entry i is the wait before attempt i+1; after the last attempt fails the delivery is marked failed.
 */
export const RETRY_SCHEDULE_MS = [
  0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000,
] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length;
export const JITTER = 0.2;
/** Retry-After is honoured up to this much, so a receiver cannot park a delivery for days. */
export const RETRY_AFTER_CAP_MS = 3_600_000;

/**
 * Wait before the next attempt after `failedAttempts` failures in the current schedule, or null when the schedule
 * is exhausted. `random` in [0, 1) spreads retries within +-20% so a recovering endpoint is not hit by a herd.
 */
export function retryDelayMs(
  failedAttempts: number,
  random: () => number = Math.random,
  retryAfterMs?: number | null,
): number | null {
  const base = RETRY_SCHEDULE_MS[failedAttempts];
  if (base === undefined) return null;
  const jittered = Math.round(base * (1 - JITTER + 2 * JITTER * random()));
  if (retryAfterMs === undefined || retryAfterMs === null) return jittered;
  // Never sooner than the receiver asked, never later than the cap unless the schedule itself is later.
  return Math.max(jittered, Math.min(retryAfterMs, RETRY_AFTER_CAP_MS));
}

/** `Retry-After` as delta-seconds or an HTTP date, in ms from `nowMs`; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}
