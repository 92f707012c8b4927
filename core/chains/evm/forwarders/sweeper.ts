import type { Kysely } from 'kysely';
import { type Address, BaseError, createPublicClient, http, type PublicClient, zeroAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Clock } from '../../../clock.js';
import { toError } from '../../../errors.js';
import { type Unswept, unsweptForwarders } from '../../../forwarders/store.js';
import type { Logger } from '../../../log.js';
import type { Database } from '../../../store/schema.js';
import type { Sweeper, SweeperStatus } from '../../family.js';
import { chainKey } from '../../types.js';
import type { EvmNetworkConfig, ForwarderConfig } from '../config.js';
import { factoryProblem } from './check-factory.js';
import { followPending } from './follow-pending.js';
import { type FlushScans, reconcileFlushes } from './reconcile-flushes.js';
import { relayBatch } from './relay-batch.js';
import type { SweepContext } from './sweep-context.js';

type Db = Kysely<Database>;

export interface SweeperDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** The watcher's processed height of a chain key, and how many confirmations its deposits need. */
  chains: { headOf(key: string, db: Db): Promise<number | null>; requiredConfirmations(key: string): number };
}

/**
 * One EVM network's forwarders: checks the factory on chain, notices flushes made by anyone, and with a relayer key
 * sends flushMany batches itself within the operator's limits. Each step lives in its own module (check-factory,
 * reconcile-flushes, follow-pending, relay-batch) over the store functions of store.ts; this class only runs them in
 * order on a timer and holds what they learn. Never touches payments.
 */
export class ForwarderSweeper implements Sweeper {
  readonly network: string;
  private readonly ctx: SweepContext;
  private readonly account: ReturnType<typeof privateKeyToAccount> | null;
  private lastWarnAt = 0;
  private readonly scans: FlushScans = new Map();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    readonly config: EvmNetworkConfig,
    private readonly fwd: ForwarderConfig,
    private readonly deps: SweeperDeps,
    client?: PublicClient,
  ) {
    this.network = config.network;
    this.account = fwd.relayerKey ? privateKeyToAccount(fwd.relayerKey) : null;
    this.ctx = {
      network: config.network,
      chainKey: chainKey('live', config.network),
      config,
      fwd,
      client:
        client ??
        createPublicClient({
          cacheTime: 0,
          transport: http(config.rpcUrl, { timeout: config.timeoutMs, retryCount: 0 }),
        }),
      db: deps.db,
      clock: deps.clock,
      logger: deps.logger,
      status: {
        network: config.network,
        factory: fwd.factory,
        factoryProblem: 'the forwarder factory has not been checked on chain yet',
        relayer: this.account?.address ?? null,
        relayerBalanceWei: null,
        waiting: null,
        unswept: { forwarders: 0, units: new Map() },
      },
      tokenOf: (asset) =>
        (config.tokens.find((t) => t.asset === asset)?.contract as Address | undefined) ?? zeroAddress,
      safe: (e) => {
        const short = e instanceof BaseError ? e.shortMessage : toError(e).message;
        return short.split(config.rpcUrl).join('<rpc url>');
      },
      warnOnce: (message) => {
        const now = deps.clock.now();
        if (now - this.lastWarnAt < 600_000) return;
        this.lastWarnAt = now;
        deps.logger.warn(message, { network: this.network });
      },
    };
  }

  status(): SweeperStatus {
    return this.ctx.status;
  }

  start(): void {
    const loop = () => {
      this.running = this.tick()
        .catch((e) =>
          this.deps.logger.warn('forwarder sweeper failed', { network: this.network, error: this.ctx.safe(e) }),
        )
        .finally(() => {
          this.running = null;
          if (this.timer) this.timer = setTimeout(loop, this.fwd.intervalMs);
        });
    };
    this.timer = setTimeout(loop, 0);
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One pass: factory check, reconcile flushes seen on chain, then the relayer's own work. */
  async tick(): Promise<void> {
    const { ctx } = this;
    if (ctx.status.factoryProblem !== null) await this.checkFactory();
    if (ctx.status.factoryProblem !== null) return;
    const head = await this.deps.chains.headOf(ctx.chainKey, ctx.db);
    if (head === null) return;
    const confirmedHeight = head - this.deps.chains.requiredConfirmations(ctx.chainKey) + 1;
    const now = ctx.clock.now();
    const query = { network: this.network, chainKey: ctx.chainKey, confirmedHeight, now };
    let unswept = await unsweptForwarders(ctx.db, query);
    if (unswept.length > 0 && (await reconcileFlushes(ctx, unswept, this.scans)) > 0)
      unswept = await unsweptForwarders(ctx.db, query);
    ctx.status.unswept = { forwarders: unswept.length, units: totals(unswept) };
    if (!this.account) return;
    if (await followPending(ctx, confirmedHeight)) return;
    await relayBatch(ctx, this.account, await unsweptForwarders(ctx.db, { ...query, dueOnly: true }));
  }

  private async checkFactory(): Promise<void> {
    const { ctx } = this;
    const problem = await factoryProblem(ctx.client, this.fwd.factory, this.config.chainId, ctx.safe);
    if (problem === null) {
      ctx.status.factoryProblem = null;
      ctx.logger.info('forwarder factory checked', { network: this.network, factory: this.fwd.factory });
      return;
    }
    if (ctx.status.factoryProblem !== problem) ctx.logger.error(problem, { network: this.network });
    ctx.status.factoryProblem = problem;
  }
}

function totals(list: Unswept[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const u of list) for (const [a, v] of u.units) out.set(a, (out.get(a) ?? 0n) + v);
  return out;
}
