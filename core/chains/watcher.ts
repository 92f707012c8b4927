import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import { toError } from '../errors.js';
import { newId } from '../ids.js';
import type { Logger } from '../log.js';
import type { Payment } from '../payments/payment.js';
import { recomputePayment } from '../payments/recompute.js';
import type { Database } from '../store/schema.js';
import type { ChainRegistry } from './registry.js';
import type { ChainSource, ChainTransfer } from './types.js';

export interface WatcherDeps {
  db: Kysely<Database>;
  clock: Clock;
  logger: Logger;
  chains: ChainRegistry;
  /** Called after a transaction commits with the payments it changed (webhook wake-up, live status streams). */
  onChanged?: (payments: Payment[]) => void;
}

/** Blocks processed per sync call, so one long catch-up never holds a transaction for long. */
const MAX_BLOCKS_PER_SYNC = 200;
/** Recent block hashes kept for reorg detection. */
const KEEP_BLOCKS = 256;

/**
 * Follows one chain: scans new blocks and the mempool, records deposits to payment addresses, counts
 * confirmations, follows reorgs, and re-derives the payments concerned. Each block is one transaction that
 * also moves the checkpoint, so a crash at any moment resumes without missing or double-counting a deposit.
 * Work per block is proportional to the block's transfers, never to the number of open payments.
 */
export class ChainWatcher {
  private running: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;

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

  /** Polls every `intervalMs`, backing off (up to 30 s) while the source fails; never stops for good. */
  start(intervalMs: number): void {
    const tick = async () => {
      try {
        await this.sync();
        this.failures = 0;
        this.deps.chains.setReachable(this.source.key, true);
      } catch (e) {
        this.failures += 1;
        this.deps.logger.warn('chain sync failed', {
          chain: this.source.key,
          failures: this.failures,
          error: toError(e).message,
        });
      }
      if (this.timer === undefined) return;
      const delay = this.failures === 0 ? intervalMs : Math.min(30_000, intervalMs * 2 ** Math.min(this.failures, 8));
      this.timer = setTimeout(tick, delay);
      this.timer.unref();
    };
    this.timer = setTimeout(tick, 0);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async syncOnce(): Promise<void> {
    const { db } = this.deps;
    const src = this.source;
    const head = await src.head();
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
    for (let h = cp.height + 1; h <= last; h++) {
      const block = await src.blockAt(h);
      if (!block) break;
      if (cp.hash && block.parentHash !== cp.hash) {
        // The chain changed under us between head() and now: resolve it on the next sync.
        break;
      }
      await this.applyBlock(block.height, block.hash, block.parentHash, block.timestamp, block.transfers);
      cp = { height: block.height, hash: block.hash };
    }

    await this.applyMempool(await src.mempool());
  }

  /** Walks back from the checkpoint until our stored hash matches the chain, and un-mines what lies above. */
  private async followReorg(
    cp: { height: number; hash: string },
    headHeight: number,
  ): Promise<{ height: number; hash: string }> {
    const { db } = this.deps;
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
    const changed = await db.transaction().execute(async (trx) => {
      const affected = await trx
        .selectFrom('deposits')
        .select('payment_id')
        .distinct()
        .where('network', '=', src.key)
        .where('block_height', '>', fork)
        .execute();
      await trx
        .updateTable('deposits')
        .set({ block_height: null, block_hash: null, updated_at: this.deps.clock.now() })
        .where('network', '=', src.key)
        .where('block_height', '>', fork)
        .execute();
      await trx.deleteFrom('chain_blocks').where('chain', '=', src.key).where('height', '>', fork).execute();
      await this.saveCheckpoint(trx, fork, forkHash);
      return this.recompute(
        trx,
        affected.map((a) => a.payment_id),
      );
    });
    this.notify(changed);
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
    const { db, clock } = this.deps;
    const src = this.source;
    const changed = await db.transaction().execute(async (trx) => {
      const now = clock.now();
      const touched = await this.recordTransfers(trx, transfers, { height, hash, seenAt: Math.min(now, timestamp) });
      // Deposits whose confirmation count moved with this block: bounded by recent deposits, not open payments.
      const maturing = await trx
        .selectFrom('deposits')
        .select('payment_id')
        .distinct()
        .where('network', '=', src.key)
        .where('removed', '=', 0)
        .where('block_height', '>=', height - src.requiredConfirmations + 1)
        .execute();
      for (const m of maturing) touched.add(m.payment_id);
      await trx.insertInto('chain_blocks').values({ chain: src.key, height, hash, parent_hash: parentHash }).execute();
      await trx
        .deleteFrom('chain_blocks')
        .where('chain', '=', src.key)
        .where('height', '<', height - KEEP_BLOCKS)
        .execute();
      await this.saveCheckpoint(trx, height, hash);
      return this.recompute(trx, [...touched]);
    });
    this.notify(changed);
  }

  private async applyMempool(transfers: ChainTransfer[]): Promise<void> {
    const { db, clock } = this.deps;
    const src = this.source;
    const changed = await db.transaction().execute(async (trx) => {
      const touched = await this.recordTransfers(trx, transfers, null);
      // Unmined deposits that left the mempool without being mined were replaced or dropped.
      const inPool = new Set(transfers.map((t) => `${t.txid}:${t.index}`));
      const pending = await trx
        .selectFrom('deposits')
        .select(['id', 'payment_id', 'txid', 'log_index'])
        .where('network', '=', src.key)
        .where('block_height', 'is', null)
        .where('removed', '=', 0)
        .execute();
      const gone = pending.filter((d) => !inPool.has(`${d.txid}:${d.log_index}`));
      if (gone.length > 0) {
        await trx
          .updateTable('deposits')
          .set({ removed: 1, updated_at: clock.now() })
          .where(
            'id',
            'in',
            gone.map((d) => d.id),
          )
          .execute();
        for (const d of gone) touched.add(d.payment_id);
      }
      return this.recompute(trx, [...touched]);
    });
    this.notify(changed);
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
    const addresses = [...new Set(transfers.map((t) => t.to))];
    const payments: Pick<Payment, 'id' | 'pay_address' | 'extra_id' | 'valid_until'>[] = [];
    for (let i = 0; i < addresses.length; i += 500) {
      payments.push(
        ...(await trx
          .selectFrom('payments')
          .select(['id', 'pay_address', 'extra_id', 'valid_until'])
          .where('network', '=', src.network)
          .where('mode', '=', src.mode)
          .where('pay_address', 'in', addresses.slice(i, i + 500))
          .execute()),
      );
    }
    if (payments.length === 0) return touched;
    const byTarget = new Map(payments.map((p) => [`${p.pay_address}|${p.extra_id ?? ''}`, p]));
    for (const t of transfers) {
      const p = byTarget.get(`${t.to}|${t.extraId ?? ''}`);
      if (!p) continue;
      const existing = await trx
        .selectFrom('deposits')
        .select(['id', 'block_height', 'block_hash', 'removed', 'first_seen_at', 'late'])
        .where('network', '=', src.key)
        .where('txid', '=', t.txid)
        .where('log_index', '=', t.index)
        .executeTakeFirst();
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
        await trx
          .updateTable('deposits')
          .set({
            block_height: blockHeight,
            block_hash: blockHash,
            removed: 0,
            first_seen_at: firstSeen,
            late,
            updated_at: now,
          })
          .where('id', '=', existing.id)
          .execute();
      } else {
        const seenAt = block ? block.seenAt : now;
        await trx
          .insertInto('deposits')
          .values({
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
          })
          .execute();
      }
      touched.add(p.id);
    }
    return touched;
  }

  private async recompute(trx: Kysely<Database>, paymentIds: string[]): Promise<Payment[]> {
    const changed: Payment[] = [];
    const now = this.deps.clock.now();
    for (const id of paymentIds) {
      const p = await recomputePayment(trx, id, now, this.deps.chains);
      if (p) changed.push(p);
    }
    return changed;
  }

  private async saveCheckpoint(db: Kysely<Database>, height: number, hash: string): Promise<void> {
    const now = this.deps.clock.now();
    await db
      .insertInto('chain_checkpoints')
      .values({ chain: this.source.key, height, hash, updated_at: now })
      .onConflict((oc) => oc.column('chain').doUpdateSet({ height, hash, updated_at: now }))
      .execute();
  }

  private notify(changed: Payment[]): void {
    if (changed.length > 0) this.deps.onChanged?.(changed);
  }
}
