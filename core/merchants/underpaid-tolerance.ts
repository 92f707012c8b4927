import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

/** The largest settable tolerances: all of the amount in basis points, and a USD amount that stays a small gap. */
export const MAX_TOLERANCE_BPS = 10_000;
export const MAX_TOLERANCE_USD = '10000.00';

export interface UnderpaidTolerance {
  /** Basis points of the amount due (100 = 1%). */
  bps: number;
  /** Absolute USD amount, decimal text with at most 2 decimals ('0' is none). */
  usd: string;
}

/** A merchant's accepted shortfall (core/payments/tolerance.ts applies it; the larger of the two wins). */
export async function underpaidToleranceOf(db: Kysely<Database>, merchantId: string): Promise<UnderpaidTolerance> {
  const m = await db
    .selectFrom('merchants')
    .select(['underpaid_tolerance_bps', 'underpaid_tolerance_usd'])
    .where('id', '=', merchantId)
    .executeTakeFirstOrThrow();
  return { bps: m.underpaid_tolerance_bps, usd: m.underpaid_tolerance_usd };
}

/** Sets both parts; applies to every payment from its next recompute (a deposit, a block). */
export async function setUnderpaidTolerance(
  db: Kysely<Database>,
  merchantId: string,
  t: UnderpaidTolerance,
  now: number,
): Promise<void> {
  await db
    .updateTable('merchants')
    .set({ underpaid_tolerance_bps: t.bps, underpaid_tolerance_usd: t.usd, updated_at: now })
    .where('id', '=', merchantId)
    .execute();
}
