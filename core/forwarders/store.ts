import type { Kysely, Selectable } from 'kysely';
import { noteSweepOutcome } from '../notifications/sweep-notices.js';
import type { Database, EvmForwarderTable, EvmSweepTable } from '../store/schema.js';

/*
 * The evm_forwarders table: one row per payment paid through a forwarder, written in the payment's own creation
 * transaction, and how far its deposits were swept; and the evm_sweeps table: each relayer transaction, stored signed
 * before it is sent. Retry bookkeeping (attempts, next attempt, last error) lives in the forwarder's row.
 */

type Db = Kysely<Database>;
export type ForwarderRow = Selectable<EvmForwarderTable>;
export type SweepRow = Selectable<EvmSweepTable>;

export async function insertForwarder(
  db: Db,
  f: Pick<
    ForwarderRow,
    'payment_id' | 'merchant_id' | 'network' | 'address' | 'factory' | 'payout' | 'salt' | 'created_at'
  >,
): Promise<void> {
  await db.insertInto('evm_forwarders').values(f).execute();
}

export function forwarderOf(db: Db, paymentId: string): Promise<ForwarderRow | undefined> {
  return db.selectFrom('evm_forwarders').selectAll().where('payment_id', '=', paymentId).executeTakeFirst();
}

/** A forwarder holding confirmed deposits that no flush has covered yet. */
export interface Unswept {
  forwarder: ForwarderRow;
  /** Base units per catalog asset code, summed over the unswept deposits. */
  units: Map<string, bigint>;
  /** Highest block of those deposits: a flush mined after it covers them all. */
  throughHeight: number;
  /** When the oldest of them was first seen (the batch's wait counts from here). */
  oldestSeenAt: number;
}

export interface UnsweptQuery {
  /** Catalog network code (`eth`). */
  network: string;
  /** The deposits' chain key (`live:eth`). */
  chainKey: string;
  /** Deposits above this height are not confirmed enough to sweep. */
  confirmedHeight: number;
  /** Payments not finished are swept only once past `valid_until` (no top-up can come any more). */
  now: number;
  merchantId?: string;
  /** Only deposits above this height (the sweeper's low-water mark): keeps the scan to recent blocks. */
  aboveHeight?: number;
  /** Only forwarders due for an attempt (not waiting out a retry, not in a pending transaction). */
  dueOnly?: boolean;
  limit?: number;
}

/**
 * Forwarders with confirmed, not yet swept deposits of finished payments (or of any payment past its validity: a
 * late or partial payment's funds are the merchant's too). Oldest first. Sweeping changes no payment: it only moves
 * what the payment already counted.
 */
export async function unsweptForwarders(db: Db, q: UnsweptQuery): Promise<Unswept[]> {
  let query = db
    .selectFrom('deposits as d')
    .innerJoin('evm_forwarders as f', 'f.payment_id', 'd.payment_id')
    .innerJoin('payments as p', 'p.id', 'd.payment_id')
    .selectAll('f')
    .select(['d.asset', 'd.amount_units', 'd.block_height', 'd.first_seen_at'])
    .where('d.network', '=', q.chainKey)
    .where('f.network', '=', q.network)
    .where('d.removed', '=', 0)
    .where('d.block_height', 'is not', null)
    .where('d.block_height', '<=', q.confirmedHeight)
    .where((eb) => eb.or([eb('f.swept_through', 'is', null), eb('d.block_height', '>', eb.ref('f.swept_through'))]))
    .where((eb) => eb.or([eb('p.status', '=', 'finished'), eb('p.valid_until', '<', q.now)]));
  if (q.merchantId !== undefined) query = query.where('f.merchant_id', '=', q.merchantId);
  if (q.aboveHeight !== undefined) query = query.where('d.block_height', '>', q.aboveHeight);
  if (q.dueOnly)
    query = query
      .where('f.pending_sweep_id', 'is', null)
      .where((eb) => eb.or([eb('f.next_sweep_at', 'is', null), eb('f.next_sweep_at', '<=', q.now)]));
  const rows = await query.orderBy('d.first_seen_at').execute();
  const out = new Map<string, Unswept>();
  for (const r of rows) {
    const { asset, amount_units, block_height, first_seen_at, ...forwarder } = r;
    let u = out.get(forwarder.payment_id);
    if (!u) {
      u = { forwarder, units: new Map(), throughHeight: 0, oldestSeenAt: Number(first_seen_at) };
      out.set(forwarder.payment_id, u);
    }
    u.units.set(asset, (u.units.get(asset) ?? 0n) + BigInt(amount_units));
    u.throughHeight = Math.max(u.throughHeight, Number(block_height));
    u.oldestSeenAt = Math.min(u.oldestSeenAt, Number(first_seen_at));
  }
  const list = [...out.values()];
  return q.limit === undefined ? list : list.slice(0, q.limit);
}

/** A flush mined after `throughHeight` covered the forwarder's deposits up to it. */
export async function markSwept(
  db: Db,
  paymentId: string,
  s: { throughHeight: number; txHash: string; at: number },
): Promise<void> {
  await db
    .updateTable('evm_forwarders')
    .set({
      swept_through: s.throughHeight,
      sweep_tx: s.txHash,
      swept_at: s.at,
      pending_sweep_id: null,
      sweep_attempts: 0,
      next_sweep_at: null,
      sweep_error: null,
    })
    .where('payment_id', '=', paymentId)
    .where((eb) => eb.or([eb('swept_through', 'is', null), eb('swept_through', '<', s.throughHeight)]))
    .execute();
}

/** Retries of a failed sweep back off: 1 min, 2, 4, ... up to 6 h. */
export function sweepBackoffMs(attempts: number): number {
  return Math.min(6 * 3_600_000, 60_000 * 2 ** Math.max(0, attempts - 1));
}

/** The network's relayer transaction still waiting to be mined, oldest first (there is at most one at a time). */
export function pendingSweep(db: Db, network: string): Promise<SweepRow | undefined> {
  return db
    .selectFrom('evm_sweeps')
    .selectAll()
    .where('network', '=', network)
    .where('status', '=', 'pending')
    .orderBy('created_at')
    .executeTakeFirst();
}

/**
 * Stores a signed relayer transaction and ties its forwarders to it, in one transaction, before it is sent: a restart
 * then waits for (or re-sends) that same transaction and never pays for the batch twice.
 */
export async function recordSweep(
  db: Db,
  sweep: Pick<SweepRow, 'id' | 'network' | 'sender' | 'nonce' | 'tx_hash' | 'raw_tx' | 'created_at'>,
  paymentIds: readonly string[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('evm_sweeps')
      .values({
        ...sweep,
        forwarders: paymentIds.length,
        status: 'pending',
        gas_used: null,
        fee_wei: null,
        block_height: null,
        error: null,
        updated_at: sweep.created_at,
      })
      .execute();
    await trx
      .updateTable('evm_forwarders')
      .set({ pending_sweep_id: sweep.id })
      .where('payment_id', 'in', paymentIds)
      .execute();
  });
}

/** How a relayer transaction ended. */
export interface SweepOutcome {
  status: 'succeeded' | 'failed';
  block?: number;
  gasUsed?: bigint;
  fee?: bigint;
  error?: string;
  /** Forwarders of a mined sweep whose payout refused an asset (they are not swept). */
  refused?: { paymentId: string; error: string }[];
  at: number;
}

/**
 * Records how a relayer transaction ended. Its forwarders leave it: a failed one's (or one whose payout refused an
 * asset) wait out a growing backoff before the next try; the others were marked swept already.
 */
export async function settleSweep(db: Db, id: string, s: SweepOutcome): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('evm_sweeps')
      .set({
        status: s.status,
        block_height: s.block ?? null,
        gas_used: s.gasUsed?.toString() ?? null,
        fee_wei: s.fee?.toString() ?? null,
        error: s.error ?? null,
        updated_at: s.at,
      })
      .where('id', '=', id)
      .execute();
    const members = await trx
      .selectFrom('evm_forwarders')
      .select(['payment_id', 'merchant_id', 'sweep_attempts'])
      .where('pending_sweep_id', '=', id)
      .execute();
    const sweep = await trx.selectFrom('evm_sweeps').select('network').where('id', '=', id).executeTakeFirst();
    await noteSweepOutcome(
      trx,
      {
        sweepId: id,
        network: sweep?.network,
        failed: s.status === 'failed',
        error: s.error ?? null,
        merchantIds: members.map((m) => m.merchant_id),
      },
      s.at,
    );
    for (const m of members) {
      const error =
        s.status === 'failed' ? (s.error ?? 'failed') : s.refused?.find((r) => r.paymentId === m.payment_id)?.error;
      const attempts = Number(m.sweep_attempts) + 1;
      await trx
        .updateTable('evm_forwarders')
        .set(
          error
            ? {
                pending_sweep_id: null,
                sweep_attempts: attempts,
                next_sweep_at: s.at + sweepBackoffMs(attempts),
                sweep_error: error,
              }
            : { pending_sweep_id: null },
        )
        .where('payment_id', '=', m.payment_id)
        .execute();
    }
  });
}

/** A forwarder that cannot be flushed now (its token refuses the payout): it waits out a backoff, with the reason. */
export async function deferForwarder(
  db: Db,
  f: Pick<ForwarderRow, 'payment_id' | 'sweep_attempts'>,
  error: string,
  now: number,
): Promise<void> {
  const attempts = Number(f.sweep_attempts) + 1;
  await db
    .updateTable('evm_forwarders')
    .set({ sweep_attempts: attempts, next_sweep_at: now + sweepBackoffMs(attempts), sweep_error: error })
    .where('payment_id', '=', f.payment_id)
    .execute();
}
