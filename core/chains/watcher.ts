import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import { toError } from '../errors.js';
import { newId } from '../ids.js';
import type { Logger } from '../log.js';
import type { PaymentChange, PaymentChanges } from '../payments/changes.js';
import {
  findDeposit,
  insertDeposit,
  markRemoved,
  paymentsWithDepositsFrom,
  unmineAbove,
  unminedDeposits,
  updateDeposit,
} from '../payments/deposits.js';
import { recomputePayment } from '../payments/recompute.js';
import { paymentsAt } from '../payments/store.js';
import { dropLeftMempool, recordRefundTransfers, rederiveRefund } from '../refunds/observe.js';
import { refundsWithTransfersFrom, unminedRefundTransfers, unmineRefundTransfersAbove } from '../refunds/transfers.js';
import type { Database } from '../store/schema.js';
import type { ChainRegistry } from './registry.js';
import { ChainLagError, type ChainSource, type ChainTransfer, type TransactionPlace } from './types.js';

export interface WatcherDeps {
  db: Kysely<Database>;
  clock: Clock;
  logger: Logger;
  chains: ChainRegistry;
  /** Where the payments a watcher moved are published, after each transaction commits. */
  changes: PaymentChanges;
}

/** Blocks processed per sync call, so one long catch-up never holds a transaction for long. */
const MAX_BLOCKS_PER_SYNC = 200;
/** Recent block hashes kept for reorg detection. */
const KEEP_BLOCKS = 256;
/** Longest wait between polls of a failing source: a node back up is seen within this. */
const MAX_BACKOFF_MS = 10_000;

/**
 * Follows one chain: scans new blocks and the mempool, records deposits to payment addresses, counts
 * confirmations, follows reorgs, and re-derives the payments concerned. Each block is one transaction that
 * also moves the checkpoint, so a crash at any moment resumes without missing or double-counting a deposit.
 * Work per block is proportional to the block's transfers, never to the number of open payments.
 *
 * Its polls are also the health check of its source: a source is payable (listed by GET /currencies) while its
 * node answered the last poll, so a node is asked once per poll, never twice.
 */
export class ChainWatcher {
  private running: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopping = false;
  /**
   * What the metrics and /readyz read (server/metrics.ts, server/readiness.ts): the node's last head, the height
   * processed, failed polls, and how the last poll went (null before the first one ends).
   */
  readonly health = {
    nodeHead: null as number | null,
    processed: null as number | null,
    errors: 0,
    lastPoll: null as 'ok' | 'lagging' | 'failed' | null,
    lastError: null as string | null,
  };

  constructor(
    private readonly deps: WatcherDeps,
    readonly source: ChainSource,
  ) {}

  /** Runs one catch-up; concurrent callers queue behind the running one. */
  sync(): Promise<void> {
    const next = this.running.then(() => this.syncOnce());
    this.running = next.catch(() => undefined);
    return next;
  }

  /** Polls every `source.pollIntervalMs`, backing off while the source fails; never stops for good. */
  start(): void {
    const { chains, logger } = this.deps;
    const key = this.source.key;
    const tick = async () => {
      try {
        await this.sync();
        if (this.failures > 0 && this.source.mode === 'live') logger.info('chain reachable again', { chain: key });
        this.failures = 0;
        chains.setReachable(key, true);
        this.health.lastPoll = 'ok';
        this.health.lastError = null;
      } catch (e) {
        this.failures += 1;
        this.health.errors += 1;
        this.health.lastPoll = e instanceof ChainLagError ? 'lagging' : 'failed';
        this.health.lastError = toError(e).message;
        // A lagging node still answers: payable, just not synced yet. Anything else and it is not payable now.
        chains.setReachable(key, e instanceof ChainLagError);
        logger.warn('chain sync failed', { chain: key, failures: this.failures, error: toError(e).message });
      }
      if (this.timer === undefined) return;
      const interval = this.source.pollIntervalMs;
      const delay =
        this.failures === 0 ? interval : Math.min(MAX_BACKOFF_MS, interval * 2 ** Math.min(this.failures, 8));
      this.timer = setTimeout(tick, delay);
      this.timer.unref();
    };
    this.timer = setTimeout(tick, 0);
    this.timer.unref();
  }

  /**
   * Stops polling. A sync under way ends at the next block boundary (each block is one transaction that moves the
   * checkpoint), and the promise resolves once it has, so a restart resumes exactly there.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    // Only the sync under way is cut short: a later sync() (tests drive chains by hand) runs in full.
    this.stopping = false;
  }

  private async syncOnce(): Promise<void> {
    const { db } = this.deps;
    const src = this.source;
    const head = await src.head();
    this.health.nodeHead = head.height;
    let cp = await db
      .selectFrom('chain_checkpoints')
      .select(['height', 'hash'])
      .where('chain', '=', src.key)
      .executeTakeFirst();
    if (!cp) {
      const start = (await src.startHeight()) - 1;
      const startBlock = start >= 0 ? await src.blockAt(start) : null;
      cp = { height: start, hash: startBlock?.hash ?? '' };
      await this.saveCheckpoint(db, cp.height, cp.hash);
    }

    // Nothing new at the tip we already hold: no reorg check needed (the common idle poll costs one call, not two).
    if (head.height !== cp.height || head.hash !== cp.hash) cp = await this.followReorg(cp, head.height);

    const last = Math.min(head.height, cp.height + MAX_BLOCKS_PER_SYNC);
    for (let h = cp.height + 1; h <= last && !this.stopping; h++) {
      const block = await src.blockAt(h);
      if (!block) break;
      if (cp.hash && block.parentHash !== cp.hash) {
        // The chain changed under us between head() and now: resolve it on the next sync.
        break;
      }
      await this.applyBlock(block.height, block.hash, block.parentHash, block.timestamp, block.transfers);
      cp = { height: block.height, hash: block.hash };
      this.health.processed = cp.height;
    }
    this.health.processed = cp.height;

    await this.applyMempool(await src.mempool(), await this.placeUnmined());
  }

  /** What a source that follows transactions by txid says of each unmined refund transfer (null: it cannot). */
  private async placeUnmined(): Promise<Map<string, TransactionPlace | null> | null> {
    const src = this.source;
    if (!src.transactionAt) return null;
    const placed = new Map<string, TransactionPlace | null>();
    for (const t of await unminedRefundTransfers(this.deps.db, src.key)) {
      if (placed.has(t.txid)) continue;
      const place = await src.transactionAt(t.txid);
      // Mined in a block this watcher has not processed (or no longer holds): pooled until it has, so a reorg of that
      // block finds the transfer in its stored blocks and rolls it back.
      const held = place?.block ? (await this.storedHash(place.block.height)) === place.block.hash : true;
      placed.set(t.txid, place && !held ? { block: null } : place);
    }
    return placed;
  }

  /** Walks back from the checkpoint until our stored hash matches the chain, and un-mines what lies above. */
  private async followReorg(
    cp: { height: number; hash: string },
    headHeight: number,
  ): Promise<{ height: number; hash: string }> {
    const src = this.source;
    if (!cp.hash || cp.height < 0) return cp;
    let h = Math.min(cp.height, headHeight);
    let hash = h === cp.height ? cp.hash : await this.storedHash(h);
    while (h >= 0) {
      // Every sync checks the checkpoint's block: a header is enough where the source can give one.
      const onChain = src.blockHash ? await src.blockHash(h) : ((await src.blockAt(h))?.hash ?? null);
      if (onChain !== null && hash !== null && onChain === hash) break;
      h -= 1;
      hash = h >= 0 ? await this.storedHash(h) : null;
    }
    if (h === cp.height) return cp;
    const fork = h;
    const forkHash = hash ?? '';
    this.deps.logger.warn('chain reorganisation', { chain: src.key, from: cp.height, fork });
    await this.inTransaction(async (trx, refunds) => {
      const affected = await unmineAbove(trx, src.key, fork, this.deps.clock.now());
      for (const id of await unmineRefundTransfersAbove(trx, src.key, fork, this.deps.clock.now())) refunds.add(id);
      await trx.deleteFrom('chain_blocks').where('chain', '=', src.key).where('height', '>', fork).execute();
      await this.saveCheckpoint(trx, fork, forkHash);
      return affected;
    });
    return { height: fork, hash: forkHash };
  }

  private async storedHash(height: number): Promise<string | null> {
    const row = await this.deps.db
      .selectFrom('chain_blocks')
      .select('hash')
      .where('chain', '=', this.source.key)
      .where('height', '=', height)
      .executeTakeFirst();
    return row?.hash ?? null;
  }

  private async applyBlock(
    height: number,
    hash: string,
    parentHash: string,
    timestamp: number,
    transfers: ChainTransfer[],
  ): Promise<void> {
    const src = this.source;
    await this.inTransaction(async (trx, refunds) => {
      const now = this.deps.clock.now();
      const at = { height, hash, seenAt: Math.min(now, timestamp) };
      const touched = await this.recordTransfers(trx, transfers, at);
      for (const id of await recordRefundTransfers(trx, src, transfers, at, now)) refunds.add(id);
      for (const id of await refundsWithTransfersFrom(trx, src.key, height - src.requiredConfirmations + 1)) {
        refunds.add(id);
      }
      // Deposits whose confirmation count moved with this block: bounded by recent deposits, not open payments.
      for (const id of await paymentsWithDepositsFrom(trx, src.key, height - src.requiredConfirmations + 1)) {
        touched.add(id);
      }
      await trx.insertInto('chain_blocks').values({ chain: src.key, height, hash, parent_hash: parentHash }).execute();
      await trx
        .deleteFrom('chain_blocks')
        .where('chain', '=', src.key)
        .where('height', '<', height - KEEP_BLOCKS)
        .execute();
      await this.saveCheckpoint(trx, height, hash);
      return touched;
    });
  }

  private async applyMempool(
    transfers: ChainTransfer[],
    placed: ReadonlyMap<string, TransactionPlace | null> | null,
  ): Promise<void> {
    const src = this.source;
    await this.inTransaction(async (trx, refunds) => {
      const now = this.deps.clock.now();
      const touched = await this.recordTransfers(trx, transfers, null);
      for (const id of await recordRefundTransfers(trx, src, transfers, null, now)) refunds.add(id);
      // Unmined deposits that left the mempool without being mined were replaced or dropped.
      const inPool = new Set(transfers.map((t) => `${t.txid}:${t.index}`));
      for (const id of await dropLeftMempool(trx, src.key, inPool, placed, now)) refunds.add(id);
      const gone = (await unminedDeposits(trx, src.key)).filter((d) => !inPool.has(`${d.txid}:${d.log_index}`));
      await markRemoved(
        trx,
        gone.map((d) => d.id),
        this.deps.clock.now(),
      );
      for (const d of gone) touched.add(d.payment_id);
      return touched;
    });
  }

  /**
   * Matches transfers to payments by address (and destination tag where the network uses one) and upserts
   * deposits. Returns the ids of payments concerned.
   */
  private async recordTransfers(
    trx: Kysely<Database>,
    transfers: ChainTransfer[],
    block: { height: number; hash: string; seenAt: number } | null,
  ): Promise<Set<string>> {
    const touched = new Set<string>();
    if (transfers.length === 0) return touched;
    const src = this.source;
    const now = this.deps.clock.now();
    const payments = await paymentsAt(trx, src.network, src.mode, [...new Set(transfers.map((t) => t.to))]);
    if (payments.length === 0) return touched;
    const byTarget = new Map(payments.map((p) => [`${p.pay_address}|${p.extra_id ?? ''}`, p]));
    for (const t of transfers) {
      const p = byTarget.get(`${t.to}|${t.extraId ?? ''}`);
      if (!p) continue;
      const existing = await findDeposit(trx, src.key, t.txid, t.index);
      if (existing) {
        const blockHeight = block?.height ?? existing.block_height;
        const blockHash = block?.hash ?? existing.block_hash;
        // A deposit first seen in the mempool after the deadline can still be in a block timed before it.
        const firstSeen = Math.min(existing.first_seen_at, block?.seenAt ?? existing.first_seen_at);
        const late = firstSeen > p.valid_until ? 1 : 0;
        if (
          existing.block_height === blockHeight &&
          existing.block_hash === blockHash &&
          existing.removed === 0 &&
          existing.late === late
        )
          continue;
        await updateDeposit(trx, existing.id, {
          block_height: blockHeight,
          block_hash: blockHash,
          removed: 0,
          first_seen_at: firstSeen,
          late,
          updated_at: now,
        });
      } else {
        const seenAt = block ? block.seenAt : now;
        await insertDeposit(trx, {
          id: newId('dep'),
          payment_id: p.id,
          network: src.key,
          txid: t.txid,
          log_index: t.index,
          asset: t.asset,
          amount_units: t.amountUnits.toString(),
          block_height: block?.height ?? null,
          block_hash: block?.hash ?? null,
          first_seen_at: seenAt,
          late: seenAt > p.valid_until ? 1 : 0,
          removed: 0,
          updated_at: now,
        });
      }
      touched.add(p.id);
    }
    return touched;
  }

  /**
   * Runs `work` in one transaction, re-derives the payments it names there (and the refunds it adds to `refunds`),
   * and after the commit publishes the payments: `state` for those whose state changed (their webhook events are in
   * the same commit), `confirmations` for the others (a block moved their count).
   */
  private async inTransaction(
    work: (trx: Kysely<Database>, refunds: Set<string>) => Promise<Iterable<string>>,
  ): Promise<void> {
    const changes = await this.deps.db.transaction().execute(async (trx) => {
      const refunds = new Set<string>();
      const ids = await work(trx, refunds);
      const now = this.deps.clock.now();
      const out: PaymentChange[] = [];
      for (const id of ids) {
        const r = await recomputePayment(trx, id, now, this.deps.chains);
        if (r) out.push({ kind: r.changed ? 'state' : 'confirmations', payment: r.payment });
      }
      // After the payments: a refund confirmed here may settle its payment as `refunded`.
      for (const id of refunds) {
        const payment = await rederiveRefund(trx, id, this.deps.chains, now);
        if (payment) out.push({ kind: 'state', payment });
      }
      return out;
    });
    this.deps.changes.publish(changes);
  }

  private async saveCheckpoint(db: Kysely<Database>, height: number, hash: string): Promise<void> {
    const now = this.deps.clock.now();
    await db
      .insertInto('chain_checkpoints')
      .values({ chain: this.source.key, height, hash, updated_at: now })
      .onConflict((oc) => oc.column('chain').doUpdateSet({ height, hash, updated_at: now }))
      .execute();
  }
}
