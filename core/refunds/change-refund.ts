import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { insertRefundEvent } from './events.js';
import type { Refund } from './refund.js';
import { type RefundPatch, writeRefundState } from './store.js';

/**
 * The one place a refund's visible state changes: bump `sequence`, write the row and its `refund.updated` event in
 * the caller's transaction. Throws when the refund moved meanwhile (the caller's transaction rolls back).
 */
export async function writeRefundChange(
  trx: Kysely<Database>,
  r: Refund,
  patch: RefundPatch,
  explorer: string | null,
  now: number,
): Promise<Refund> {
  const state = { ...patch, sequence: r.sequence + 1, updated_at: now };
  if (!(await writeRefundState(trx, r.id, r.sequence, state))) throw new Error(`refund ${r.id} changed concurrently`);
  const updated: Refund = { ...r, ...state };
  await insertRefundEvent(trx, updated, explorer, now);
  return updated;
}
