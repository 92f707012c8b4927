import type { Kysely, Selectable } from 'kysely';
import type { ChainView } from '../chains/types.js';
import type { Database, DepositTable } from '../store/schema.js';
import type { Payment } from './payment.js';

/*
 * The deposits table: what reached a payment's address on its chain. Written by the watcher, read to derive a
 * payment's state, its confirmations and the merchant's balances.
 */

type Db = Kysely<Database>;
export type Deposit = Selectable<DepositTable>;

/**
 * Confirmations of a deposit: blocks on top of and including its own, counted against the watcher's head. A deposit
 * not yet in a block, or a chain not yet watched, has none.
 *
 * @example confirmations(100, 101) // 2
 */
export function confirmations(blockHeight: number | null, head: number | null): number {
  return blockHeight === null || head === null ? 0 : Math.max(0, head - blockHeight + 1);
}

/**
 * How far a payment's deposits are confirmed, for "1 of 2" on screen: the least confirmed of its on-time deposits
 * against the chain's requirement. Finished: the requirement; nothing seen yet: 0.
 */
export async function confirmationProgress(
  db: Db,
  chains: Pick<ChainView, 'chainKeyOf' | 'headOf' | 'requiredConfirmations'>,
  p: Payment,
): Promise<{ count: number; required: number }> {
  const key = chains.chainKeyOf(p);
  const required = chains.requiredConfirmations(key);
  if (p.status === 'finished') return { count: required, required };
  const deposits = (await depositsOf(db, p.id)).filter((d) => d.removed === 0 && d.late === 0);
  if (deposits.length === 0) return { count: 0, required };
  const head = await chains.headOf(key, db);
  return { count: Math.min(required, ...deposits.map((d) => confirmations(d.block_height, head))), required };
}

export function depositsOf(db: Db, paymentId: string): Promise<Deposit[]> {
  return db.selectFrom('deposits').selectAll().where('payment_id', '=', paymentId).execute();
}

/**
 * Mined deposits of one asset to a merchant's other payments on one network, newest first, with the payment's
 * address and its derivation index: outputs the merchant's wallet holds besides one payment's own.
 */
export function minedDepositsOfMerchant(
  db: Db,
  q: { merchantId: string; mode: 'test' | 'live'; network: string; asset: string; exceptPaymentId: string },
  limit: number,
) {
  return db
    .selectFrom('deposits as d')
    .innerJoin('payments as p', 'p.id', 'd.payment_id')
    .select(['d.txid', 'd.log_index', 'd.block_hash', 'p.address_index', 'p.pay_address'])
    .where('p.merchant_id', '=', q.merchantId)
    .where('p.mode', '=', q.mode)
    .where('p.network', '=', q.network)
    .where('p.id', '!=', q.exceptPaymentId)
    .where('p.address_index', 'is not', null)
    .where('d.asset', '=', q.asset)
    .where('d.removed', '=', 0)
    .where('d.block_height', 'is not', null)
    .orderBy('d.first_seen_at', 'desc')
    .limit(limit)
    .execute();
}

/** The deposit of one transfer (a transaction's output, log or value) on a chain, if recorded. */
export function findDeposit(db: Db, chain: string, txid: string, index: number): Promise<Deposit | undefined> {
  return db
    .selectFrom('deposits')
    .selectAll()
    .where('network', '=', chain)
    .where('txid', '=', txid)
    .where('log_index', '=', index)
    .executeTakeFirst();
}

export async function insertDeposit(db: Db, d: Deposit): Promise<void> {
  await db.insertInto('deposits').values(d).execute();
}

export async function updateDeposit(
  db: Db,
  id: string,
  patch: Partial<Pick<Deposit, 'block_height' | 'block_hash' | 'removed' | 'first_seen_at' | 'late' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable('deposits').set(patch).where('id', '=', id).execute();
}

/** Deposits of a chain still waiting in its mempool (not in a block, not removed). */
export function unminedDeposits(
  db: Db,
  chain: string,
): Promise<Pick<Deposit, 'id' | 'payment_id' | 'txid' | 'log_index'>[]> {
  return db
    .selectFrom('deposits')
    .select(['id', 'payment_id', 'txid', 'log_index'])
    .where('network', '=', chain)
    .where('block_height', 'is', null)
    .where('removed', '=', 0)
    .execute();
}

/** Marks deposits whose transaction left the mempool unmined (replaced, dropped) as removed. */
export async function markRemoved(db: Db, ids: string[], now: number): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('deposits').set({ removed: 1, updated_at: now }).where('id', 'in', ids).execute();
}

/**
 * Payments with a deposit in a block at or above `fromHeight` on a chain: those whose confirmations a new block moves.
 * Bounded by the deposits of the last few blocks (index deposits_chain_height), never by open payments.
 */
export async function paymentsWithDepositsFrom(db: Db, chain: string, fromHeight: number): Promise<string[]> {
  const rows = await db
    .selectFrom('deposits')
    .select('payment_id')
    .distinct()
    .where('network', '=', chain)
    .where('removed', '=', 0)
    .where('block_height', '>=', fromHeight)
    .execute();
  return rows.map((r) => r.payment_id);
}

/**
 * A reorganisation dropped the blocks above `forkHeight`: their deposits go back to the mempool (the next sync
 * re-mines or removes them). Returns the payments concerned.
 */
export async function unmineAbove(db: Db, chain: string, forkHeight: number, now: number): Promise<string[]> {
  const affected = await db
    .selectFrom('deposits')
    .select('payment_id')
    .distinct()
    .where('network', '=', chain)
    .where('block_height', '>', forkHeight)
    .execute();
  await db
    .updateTable('deposits')
    .set({ block_height: null, block_hash: null, updated_at: now })
    .where('network', '=', chain)
    .where('block_height', '>', forkHeight)
    .execute();
  return affected.map((a) => a.payment_id);
}
