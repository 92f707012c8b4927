import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Asset } from '../../catalog/types.js';
import type { Clock } from '../../clock.js';
import { toError } from '../../errors.js';
import type { Logger } from '../../log.js';
import { takeTurns } from '../../store/dialect.js';
import type { Database } from '../../store/schema.js';
import { type ChainBlock, type ChainSource, type ChainTransfer, chainKey } from '../types.js';
import type { ChainWatchers } from '../watchers.js';

/** Sandbox confirmations: 2, so `confirming` is observable between the first and second block (docs/architecture.md). */
export const SANDBOX_CONFIRMATIONS = 2;

const GENESIS_HASH = `0x${'0'.repeat(64)}`;

function blockHash(): string {
  return `0x${randomBytes(32).toString('hex')}`;
}

/**
 * The simulated chain of one network, kept in the store so that, like a real chain, it outlives the service.
 * The watcher reads it through the same ChainSource interface as a real node.
 */
export class SandboxChain implements ChainSource {
  readonly key: string;
  readonly mode = 'test' as const;
  readonly requiredConfirmations = SANDBOX_CONFIRMATIONS;
  /** A safety net only: the sandbox moves through our own routes and block timer, which sync its watcher at once. */
  readonly pollIntervalMs = 5_000;

  constructor(
    private readonly db: Kysely<Database>,
    readonly network: string,
  ) {
    this.key = chainKey('test', network);
  }

  async head(): Promise<{ height: number; hash: string }> {
    const row = await this.db
      .selectFrom('sandbox_blocks')
      .select(['height', 'hash'])
      .where('network', '=', this.network)
      .orderBy('height', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ?? { height: 0, hash: GENESIS_HASH };
  }

  async blockAt(height: number): Promise<ChainBlock | null> {
    if (height === 0) return { height: 0, hash: GENESIS_HASH, parentHash: GENESIS_HASH, timestamp: 0, transfers: [] };
    const block = await this.db
      .selectFrom('sandbox_blocks')
      .selectAll()
      .where('network', '=', this.network)
      .where('height', '=', height)
      .executeTakeFirst();
    if (!block) return null;
    const rows = await this.db
      .selectFrom('sandbox_transfers')
      .selectAll()
      .where('network', '=', this.network)
      .where('block_height', '=', height)
      .execute();
    return {
      height,
      hash: block.hash,
      parentHash: block.parent_hash,
      timestamp: block.created_at,
      transfers: rows.map(toTransfer),
    };
  }

  async mempool(): Promise<ChainTransfer[]> {
    const rows = await this.db
      .selectFrom('sandbox_transfers')
      .selectAll()
      .where('network', '=', this.network)
      .where('block_height', 'is', null)
      .execute();
    return rows.map(toTransfer);
  }

  async startHeight(): Promise<number> {
    return 1;
  }
}

function toTransfer(r: {
  txid: string;
  address: string;
  extra_id: string | null;
  currency: string;
  amount_units: string;
}): ChainTransfer {
  return {
    txid: r.txid,
    index: 0,
    to: r.address,
    extraId: r.extra_id,
    asset: r.currency,
    amountUnits: BigInt(r.amount_units),
  };
}

/** Broadcasts a transfer: it sits in the mempool (0 confirmations) until a block is mined. */
export async function sandboxSend(
  db: Kysely<Database>,
  clock: Clock,
  t: { asset: Asset; address: string; extraId: string | null; units: bigint },
): Promise<string> {
  const txid = t.asset.family === 'evm' ? `0x${randomBytes(32).toString('hex')}` : randomBytes(32).toString('hex');
  await db
    .insertInto('sandbox_transfers')
    .values({
      txid,
      network: t.asset.network,
      currency: t.asset.code,
      address: t.address,
      extra_id: t.extraId,
      amount_units: t.units.toString(),
      block_height: null,
      created_at: clock.now(),
    })
    .execute();
  return txid;
}

/** Mines `count` blocks on one network; the first takes every transfer waiting in the mempool. Returns the new height. */
export async function sandboxMine(db: Kysely<Database>, clock: Clock, network: string, count: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // Two requests mining one network at once would both build on the same tip.
    await takeTurns(trx, `sandbox-mine:${network}`);
    const tip = await new SandboxChain(trx, network).head();
    let height = tip.height;
    let parent = tip.hash;
    for (let i = 0; i < count; i++) {
      height += 1;
      const hash = blockHash();
      await trx
        .insertInto('sandbox_blocks')
        .values({ network, height, hash, parent_hash: parent, created_at: clock.now() })
        .execute();
      if (i === 0) {
        await trx
          .updateTable('sandbox_transfers')
          .set({ block_height: height })
          .where('network', '=', network)
          .where('block_height', 'is', null)
          .execute();
      }
      parent = hash;
    }
    return height;
  });
}

/**
 * Whether a network needs blocks for its payments to progress: transfers waiting in the mempool, or mined
 * ones still short of the required confirmations. The demo's block timer mines only those networks.
 */
export async function sandboxNeedsBlocks(db: Kysely<Database>, network: string): Promise<boolean> {
  const tip = await new SandboxChain(db, network).head();
  const row = await db
    .selectFrom('sandbox_transfers')
    .select('txid')
    .where('network', '=', network)
    .where((eb) =>
      eb.or([eb('block_height', 'is', null), eb('block_height', '>', tip.height - SANDBOX_CONFIRMATIONS + 1)]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The demo's block timer (SANDBOX_BLOCK_INTERVAL_MS): every `intervalMs`, mines one block on each network that
 * needs one and syncs its watcher, so test payments confirm without anyone calling POST /sandbox/blocks. Returns
 * the function that stops it.
 */
export function startSandboxBlocks(
  deps: { db: Kysely<Database>; clock: Clock; logger: Logger; watchers: ChainWatchers },
  networks: readonly string[],
  intervalMs: number,
): () => void {
  const t = setInterval(async () => {
    for (const n of networks) {
      try {
        if (await sandboxNeedsBlocks(deps.db, n)) {
          await sandboxMine(deps.db, deps.clock, n, 1);
          await deps.watchers.sync(chainKey('test', n));
        }
      } catch (e) {
        deps.logger.warn('sandbox block timer failed', { network: n, error: toError(e).message });
      }
    }
  }, intervalMs);
  t.unref();
  return () => clearInterval(t);
}
