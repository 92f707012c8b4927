import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import type { Refund, RefundTransfer } from './refund.js';

/** Store operations on `refund_transfers`: transfers seen to refunds' addresses, followed through reorgs. */

/** Refunds a transfer can complete: confirmed by the merchant, not cancelled, at one of these addresses. */
export function refundsAt(
  db: Kysely<Database>,
  network: string,
  mode: 'test' | 'live',
  addresses: readonly string[],
): Promise<Refund[]> {
  if (addresses.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('network', '=', network)
    .where('mode', '=', mode)
    .where('address', 'in', addresses)
    .where('status', 'in', ['ready', 'sent', 'confirmed'])
    .execute();
}

/** Every refund's record of one transfer (any refund, removed or not): a transfer completes one refund at most. */
export function transfersAt(
  db: Kysely<Database>,
  chain: string,
  txid: string,
  index: number,
): Promise<RefundTransfer[]> {
  return db
    .selectFrom('refund_transfers')
    .selectAll()
    .where('chain', '=', chain)
    .where('txid', '=', txid)
    .where('log_index', '=', index)
    .orderBy('first_seen_at')
    .execute();
}

export async function insertRefundTransfer(db: Kysely<Database>, t: RefundTransfer): Promise<void> {
  await db.insertInto('refund_transfers').values(t).execute();
}

export async function updateRefundTransfer(
  db: Kysely<Database>,
  id: string,
  patch: Pick<RefundTransfer, 'block_height' | 'block_hash' | 'removed' | 'updated_at'>,
): Promise<void> {
  await db.updateTable('refund_transfers').set(patch).where('id', '=', id).execute();
}

/** Transfers still waiting in the mempool (to drop those that left it unmined). */
export function unminedRefundTransfers(db: Kysely<Database>, chain: string): Promise<RefundTransfer[]> {
  return db
    .selectFrom('refund_transfers')
    .selectAll()
    .where('chain', '=', chain)
    .where('block_height', 'is', null)
    .where('removed', '=', 0)
    .execute();
}

/** Marks transfers replaced or dropped; returns their refunds. */
export async function markRefundTransfersRemoved(
  db: Kysely<Database>,
  ids: readonly string[],
  now: number,
): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('refund_transfers').set({ removed: 1, updated_at: now }).where('id', 'in', ids).execute();
}

/** Refunds whose transfers sit in blocks from `fromHeight` on: a new block moved their confirmation count. */
export async function refundsWithTransfersFrom(
  db: Kysely<Database>,
  chain: string,
  fromHeight: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('refund_transfers')
    .select('refund_id')
    .distinct()
    .where('chain', '=', chain)
    .where('removed', '=', 0)
    .where('block_height', '>=', fromHeight)
    .execute();
  return rows.map((r) => r.refund_id);
}

/** A reorg: transfers above the fork go back to the mempool view; returns the refunds concerned. */
export async function unmineRefundTransfersAbove(
  db: Kysely<Database>,
  chain: string,
  forkHeight: number,
  now: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('refund_transfers')
    .select('refund_id')
    .distinct()
    .where('chain', '=', chain)
    .where('block_height', '>', forkHeight)
    .execute();
  await db
    .updateTable('refund_transfers')
    .set({ block_height: null, block_hash: null, updated_at: now })
    .where('chain', '=', chain)
    .where('block_height', '>', forkHeight)
    .execute();
  return rows.map((r) => r.refund_id);
}
