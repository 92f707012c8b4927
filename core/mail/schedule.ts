import { JITTER } from '../webhooks/schedule.js';

/**
 * Waits before each retry of a mail the relay deferred or could not be reached for: 30 s, 2 min, 10 min, 30 min,
 * 1 h, 2 h, 4 h, 8 h, 12 h, 24 h (about two and a half days in all, longer than a relay's own queue keeps a mail),
 * each +-20% like webhook retries. After the last one the mail is failed, kept in the log.
 */
export const MAIL_RETRY_SCHEDULE_MS = [
  30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 43_200_000, 86_400_000,
] as const;

/** Wait before the next attempt after `failedAttempts` failures, or null when the schedule is exhausted. */
export function mailRetryDelayMs(failedAttempts: number, random: () => number = Math.random): number | null {
  const base = MAIL_RETRY_SCHEDULE_MS[failedAttempts - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}
