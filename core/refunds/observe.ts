import type { Kysely } from 'kysely';
import type { ChainRegistry } from '../chains/registry.js';
import type { ChainTransfer, TransactionPlace } from '../chains/types.js';
import { newId } from '../ids.js';
import { recountShares } from '../payments/balance-totals.js';
import { confirmations } from '../payments/deposits.js';
import type { Payment } from '../payments/payment.js';
import { writeChange } from '../payments/recompute.js';
import { lockPayment } from '../payments/store.js';
import type { Database } from '../store/schema.js';
import { writeRefundChange } from './change-refund.js';
import { explorerOf, type Refund } from './refund.js';
import { findRefund, refundsOfPayment, transfersOfRefunds } from './store.js';
import {
  insertRefundTransfer,
  markRefundTransfersRemoved,
  refundsAt,
  transfersAt,
  unminedRefundTransfers,
  updateRefundTransfer,
} from './transfers.js';

/*
 * Refunds seen on chain (issue 30): the watcher that follows a chain for deposits also matches its transfers to the
 * addresses of refunds the merchant confirmed. A transfer of the refund's asset and exact amount, seen after the
 * refund was created, from any sender, makes it `sent`, then `confirmed` at the chain's confirmation count; another
 * amount is recorded on the refund and completes nothing. A reorg or a dropped transaction rolls it back, as deposits.
 */

/** How far a block's own time may trail the moment it was made (Bitcoin's rules allow two hours either way). */
const BLOCK_CLOCK_DRIFT_MS = 2 * 60 * 60 * 1000;

type Source = { key: string; network: string; mode: 'test' | 'live' };

/** Records transfers to open refunds' addresses; returns the ids of refunds concerned. */
export async function recordRefundTransfers(
  trx: Kysely<Database>,
  src: Source,
  transfers: readonly ChainTransfer[],
  block: { height: number; hash: string; seenAt: number } | null,
  now: number,
): Promise<Set<string>> {
  const touched = new Set<string>();
  if (transfers.length === 0) return touched;
  const refunds = await refundsAt(trx, src.network, src.mode, [...new Set(transfers.map((t) => t.to))]);
  if (refunds.length === 0) return touched;
  const seenAt = block ? block.seenAt : now;
  // Oldest first: of two open refunds to one address, the one made first is the one a transfer completes.
  const byAge = [...refunds].sort((x, y) => x.created_at - y.created_at);
  const completed = new Set<string>();
  for (const t of transfers) {
    const here = byAge.filter((r) => r.address === t.to && r.asset === t.asset);
    if (here.length === 0) continue;
    // One transfer is one refund's, ever: recorded already, it moves with its block on the refund that has it.
    const rows = await transfersAt(trx, src.key, t.txid, t.index);
    const mine = rows.find((x) => here.some((r) => r.id === x.refund_id));
    if (mine) {
      const height = block?.height ?? mine.block_height;
      const hash = block?.hash ?? mine.block_hash;
      if (mine.block_height === height && mine.block_hash === hash && mine.removed === 0) continue;
      await updateRefundTransfer(trx, mine.id, { block_height: height, block_hash: hash, removed: 0, updated_at: now });
      touched.add(mine.refund_id);
      continue;
    }
    if (rows.some((x) => x.removed === 0)) continue;
    // The watcher meets each block once, in order, so a transfer met here while the refund is open came after it
    // was made, whatever its block's time says: block times are whole seconds set by miners, and Bitcoin's rules let
    // them run two hours off, so a refund sent a moment after it was made can carry an earlier stamp. A block replayed
    // by a reorg, or met late by a watcher catching up, can bring older money: one stamped further back than any clock
    // drift is not this refund, and money another refund already took is not this one either (above).
    const open = here.filter((r) => !block || block.seenAt + BLOCK_CLOCK_DRIFT_MS >= r.created_at);
    // The exact amount goes to the oldest refund still waiting for it (not sent yet, nor given one here already).
    const exact = open.filter((x) => t.amountUnits === BigInt(x.amount_units));
    const r = exact.find((x) => x.status === 'ready' && !completed.has(x.id)) ?? exact[0] ?? open[0];
    if (!r) continue;
    if (t.amountUnits === BigInt(r.amount_units)) completed.add(r.id);
    await insertRefundTransfer(trx, {
      id: newId('rtx'),
      refund_id: r.id,
      chain: src.key,
      txid: t.txid,
      log_index: t.index,
      asset: t.asset,
      amount_units: t.amountUnits.toString(),
      exact: t.amountUnits === BigInt(r.amount_units) ? 1 : 0,
      block_height: block?.height ?? null,
      block_hash: block?.hash ?? null,
      removed: 0,
      first_seen_at: seenAt,
      updated_at: now,
    });
    touched.add(r.id);
  }
  return touched;
}

/**
 * Unmined transfers missing from the mempool view: replaced or dropped, so removed; returns the refunds concerned.
 * Where the source follows transactions by txid (`placed`: what it said of each, asked before this transaction), the
 * node's word decides instead: back in a block (a reorg's transaction mined again), still in its pool, or gone.
 */
export async function dropLeftMempool(
  trx: Kysely<Database>,
  chain: string,
  inPool: ReadonlySet<string>,
  placed: ReadonlyMap<string, TransactionPlace | null> | null,
  now: number,
): Promise<string[]> {
  const missing = (await unminedRefundTransfers(trx, chain)).filter((t) => !inPool.has(`${t.txid}:${t.log_index}`));
  const gone: typeof missing = [];
  const touched = new Set<string>();
  for (const t of missing) {
    if (!placed) {
      gone.push(t);
      continue;
    }
    // Not asked yet (recorded after the question): the next sync asks.
    if (!placed.has(t.txid)) continue;
    const place = placed.get(t.txid);
    if (!place) gone.push(t);
    else if (place.block) {
      await updateRefundTransfer(trx, t.id, { ...blockOf(place.block), removed: 0, updated_at: now });
      touched.add(t.refund_id);
    }
  }
  await markRefundTransfersRemoved(
    trx,
    gone.map((t) => t.id),
    now,
  );
  for (const t of gone) touched.add(t.refund_id);
  return [...touched];
}

const blockOf = (b: { height: number; hash: string }) => ({ block_height: b.height, block_hash: b.hash });

/**
 * Re-derives a refund from the transfers seen to it and writes the change (with its `refund.updated` event); when
 * confirmed refunds then cover what the payment received, the payment becomes `refunded` (with its own
 * `payment.updated`) in the same transaction. Returns the payment when its state changed.
 */
export async function rederiveRefund(
  trx: Kysely<Database>,
  refundId: string,
  chains: ChainRegistry,
  now: number,
): Promise<Payment | undefined> {
  const r = await findRefund(trx, refundId);
  if (!r || (r.status !== 'ready' && r.status !== 'sent' && r.status !== 'confirmed')) return undefined;
  const key = chains.chainKeyOf(r);
  const head = await chains.headOf(key, trx);
  const need = chains.requiredConfirmations(key);
  const exact = (await transfersOfRefunds(trx, [r.id])).filter((t) => t.exact === 1 && t.removed === 0);
  const done = exact.find((t) => confirmations(t.block_height, head) >= need);
  const seen = done ?? exact[0];
  const status: Refund['status'] = done ? 'confirmed' : seen ? 'sent' : 'ready';
  const txid = seen?.txid ?? null;
  if (status === r.status && txid === r.txid) return undefined;
  const updated = await writeRefundChange(
    trx,
    r,
    {
      status,
      txid,
      sent_at: seen ? (r.sent_at ?? now) : null,
      confirmed_at: done ? (r.confirmed_at ?? now) : null,
    },
    explorerOf(chains, r),
    now,
  );
  if (updated.status !== 'confirmed') return undefined;
  return settleRefunded(trx, r.payment_id, now);
}

/** The payment becomes `refunded` once its confirmed refunds cover what it received (the API's status, docs/architecture.md). */
async function settleRefunded(trx: Kysely<Database>, paymentId: string, now: number): Promise<Payment | undefined> {
  const p = await lockPayment(trx, paymentId);
  if (!p || p.status === 'refunded') return undefined;
  const received = BigInt(p.actually_paid_units);
  const confirmed = (await refundsOfPayment(trx, p.id))
    .filter((x) => x.status === 'confirmed')
    .reduce((sum, x) => sum + BigInt(x.amount_units), 0n);
  if (received === 0n || confirmed < received) return undefined;
  const payment = await writeChange(
    trx,
    p,
    {
      status: 'refunded',
      status_detail: p.status_detail,
      actually_paid_units: p.actually_paid_units,
      confirmed_at: p.confirmed_at,
    },
    now,
  );
  // A refunded payment's deposits count no more in the balance: its shares move in this same transaction.
  await recountShares(trx, payment, now);
  return payment;
}
