import { type Kysely, sql } from 'kysely';
import type { Database } from '../store/schema.js';

/*
 * The dashboard_sign_in_failures table: failed sign-ins counted per client address and per account in a fixed
 * window. In the store, so the limits hold across restarts and across service processes on one store.
 */

type Db = Kysely<Database>;

export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
/** Failed sign-ins allowed per account (e-mail address) per window. */
export const MAX_FAILURES_PER_ACCOUNT = 5;
/** Failed sign-ins allowed per client address per window (an office shares one address). */
export const MAX_FAILURES_PER_ADDRESS = 20;

export const addressKey = (address: string) => `addr:${address}`;
export const accountKey = (email: string) => `acct:${email}`;

/** Seconds until `key` may try again, or 0 when it may now. */
export async function blockedFor(db: Db, key: string, max: number, now: number): Promise<number> {
  const row = await db
    .selectFrom('dashboard_sign_in_failures')
    .select(['failures', 'window_ends_at'])
    .where('key', '=', key)
    .executeTakeFirst();
  if (!row || row.window_ends_at <= now || row.failures < max) return 0;
  return Math.ceil((row.window_ends_at - now) / 1000);
}

/** Counts one failure of `key`: a window starts with the first failure and runs SIGN_IN_WINDOW_MS. */
export async function recordFailure(db: Db, key: string, now: number): Promise<void> {
  const end = now + SIGN_IN_WINDOW_MS;
  await db
    .insertInto('dashboard_sign_in_failures')
    .values({ key, failures: 1, window_ends_at: end })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        failures: sql`case when dashboard_sign_in_failures.window_ends_at <= ${now} then 1 else dashboard_sign_in_failures.failures + 1 end`,
        window_ends_at: sql`case when dashboard_sign_in_failures.window_ends_at <= ${now} then ${end} else dashboard_sign_in_failures.window_ends_at end`,
      }),
    )
    .execute();
}

/** A successful sign-in clears its account's count (not its address's: one success must not unlock guessing). */
export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.deleteFrom('dashboard_sign_in_failures').where('key', '=', key).execute();
}
