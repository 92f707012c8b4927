import { type Kysely, sql } from 'kysely';
import type { Database } from '../store/schema.js';

/*
 * The dashboard_sign_in_failures table: sign-in attempts counted per client address and per account in a fixed
 * window. In the store, so the limits hold across restarts and across service processes on one store.
 *
 * An attempt is counted BEFORE its password is checked (one atomic upsert that returns the new count), and
 * forgiven afterwards when it succeeded or was refused unchecked. Checking the count first and recording a failure
 * after the slow password hash let parallel requests all pass the check before the first failure was written
 * (issue 23, item 11: 30 concurrent tries, no 429).
 */

type Db = Kysely<Database>;

export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
/** Failed sign-ins allowed per account (e-mail address) per window. */
export const MAX_FAILURES_PER_ACCOUNT = 5;
/** Failed sign-ins allowed per client address per window (an office shares one address). */
export const MAX_FAILURES_PER_ADDRESS = 20;

export const addressKey = (address: string) => `addr:${address}`;
export const accountKey = (email: string) => `acct:${email}`;

/**
 * Counts one attempt of `key` and answers the seconds it must wait (0: this attempt may check its password). A
 * window starts with the first attempt and runs SIGN_IN_WINDOW_MS; within it, the first `max` attempts not
 * forgiven pass.
 */
export async function countAttempt(db: Db, key: string, max: number, now: number): Promise<number> {
  const end = now + SIGN_IN_WINDOW_MS;
  const row = await db
    .insertInto('dashboard_sign_in_failures')
    .values({ key, failures: 1, window_ends_at: end })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        failures: sql`case when dashboard_sign_in_failures.window_ends_at <= ${now} then 1 else dashboard_sign_in_failures.failures + 1 end`,
        window_ends_at: sql`case when dashboard_sign_in_failures.window_ends_at <= ${now} then ${end} else dashboard_sign_in_failures.window_ends_at end`,
      }),
    )
    .returning(['failures', 'window_ends_at'])
    .executeTakeFirstOrThrow();
  if (row.failures <= max) return 0;
  return Math.max(1, Math.ceil((Number(row.window_ends_at) - now) / 1000));
}

/** Takes back one counted attempt of `key` (it succeeded on the address, or never had its password checked). */
export async function forgiveAttempt(db: Db, key: string): Promise<void> {
  await db
    .updateTable('dashboard_sign_in_failures')
    .set({ failures: sql`case when failures > 0 then failures - 1 else 0 end` })
    .where('key', '=', key)
    .execute();
}

/** A successful sign-in clears its account's count (not its address's: one success must not unlock guessing). */
export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.deleteFrom('dashboard_sign_in_failures').where('key', '=', key).execute();
}
