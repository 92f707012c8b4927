import type { Kysely } from 'kysely';
import {
  type Address,
  BaseError,
  createPublicClient,
  createWalletClient,
  formatEther,
  formatGwei,
  getAddress,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  parseEventLogs,
  zeroAddress,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { forwarderAbi, forwarderFactoryAbi } from '../../contracts/build/forwarders.js';
import type { EvmNetworkConfig, ForwarderConfig } from '../chains/evm/config.js';
import { chainKey } from '../chains/types.js';
import type { Clock } from '../clock.js';
import { toError } from '../errors.js';
import { newId } from '../ids.js';
import type { Logger } from '../log.js';
import type { Database } from '../store/schema.js';
import { forwarderAddress, implementationOf } from './address.js';
import { coverage, type FlushLog } from './coverage.js';
import { markSwept, type Unswept, unsweptForwarders } from './store.js';
import { flushManyData, sweepEntry } from './sweep-transaction.js';

type Db = Kysely<Database>;

const FLUSHED = forwarderAbi.find((x) => x.type === 'event' && x.name === 'Flushed') as Extract<
  (typeof forwarderAbi)[number],
  { type: 'event'; name: 'Flushed' }
>;

export interface SweeperDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** The watcher's processed height of a chain key, and how many confirmations its deposits need. */
  chains: { headOf(key: string, db: Db): Promise<number | null>; requiredConfirmations(key: string): number };
}

/** What the sweeper of one network knows now: the dashboard, /metrics and the logs read it. */
export interface SweeperStatus {
  network: string;
  factory: Address;
  /** Why forwarder payments are refused on this network, or null once the factory was checked on chain. */
  factoryProblem: string | null;
  relayer: Address | null;
  relayerBalanceWei: bigint | null;
  /** Why the relayer is not sweeping now (batching, gas price, no gas), or null. */
  waiting: string | null;
  unswept: { forwarders: number; units: Map<string, bigint> };
}

/** Retries of a failed sweep back off: 1 min, 2, 4, ... up to 6 h. */
function backoffMs(attempts: number): number {
  return Math.min(6 * 3_600_000, 60_000 * 2 ** Math.max(0, attempts - 1));
}

/**
 * One EVM network's forwarders: checks the factory on chain, notices flushes made by anyone (the dashboard's wallet,
 * the CLI's calldata, a stranger: every flush emits `Flushed` from the forwarder), and with a relayer key sends
 * flushMany batches itself within the operator's limits. Each signed transaction is stored before it is sent, so a
 * restart waits for or re-sends that transaction and never pays for the same batch twice. Never touches payments.
 */
export class ForwarderSweeper {
  readonly network: string;
  private readonly key: string;
  private readonly client: PublicClient;
  private readonly account: ReturnType<typeof privateKeyToAccount> | null;
  private state: SweeperStatus;
  private lastWarnAt = 0;
  /** Per listed forwarder: the block its Flushed logs were read through, and those found after its deposits. */
  private readonly scanned = new Map<string, { through: number; flushes: FlushLog[] }>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    readonly config: EvmNetworkConfig,
    private readonly fwd: ForwarderConfig,
    private readonly deps: SweeperDeps,
    client?: PublicClient,
  ) {
    this.network = config.network;
    this.key = chainKey('live', config.network);
    this.client =
      client ??
      createPublicClient({
        cacheTime: 0,
        transport: http(config.rpcUrl, { timeout: config.timeoutMs, retryCount: 0 }),
      });
    this.account = fwd.relayerKey ? privateKeyToAccount(fwd.relayerKey) : null;
    this.state = {
      network: config.network,
      factory: fwd.factory,
      factoryProblem: 'the forwarder factory has not been checked on chain yet',
      relayer: this.account?.address ?? null,
      relayerBalanceWei: null,
      waiting: null,
      unswept: { forwarders: 0, units: new Map() },
    };
  }

  status(): SweeperStatus {
    return this.state;
  }

  start(): void {
    const loop = () => {
      this.running = this.tick()
        .catch((e) => this.deps.logger.warn('forwarder sweeper failed', { network: this.network, error: this.safe(e) }))
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
    if (this.state.factoryProblem !== null) await this.checkFactory();
    if (this.state.factoryProblem !== null) return;
    const head = await this.deps.chains.headOf(this.key, this.deps.db);
    if (head === null) return;
    const confirmedHeight = head - this.deps.chains.requiredConfirmations(this.key) + 1;
    const now = this.deps.clock.now();
    const query = { network: this.network, chainKey: this.key, confirmedHeight, now };
    let unswept = await unsweptForwarders(this.deps.db, query);
    if (unswept.length > 0 && (await this.reconcile(unswept)) > 0)
      unswept = await unsweptForwarders(this.deps.db, query);
    this.state.unswept = { forwarders: unswept.length, units: totals(unswept) };
    if (!this.account) return;
    if (await this.followPending(confirmedHeight)) return;
    await this.relay(await unsweptForwarders(this.deps.db, { ...query, dueOnly: true }));
  }

  /** The factory must have code and compute the addresses we hand out (the same CREATE2 rule, the same contract). */
  private async checkFactory(): Promise<void> {
    const factory = this.fwd.factory;
    try {
      const code = await this.client.getCode({ address: factory });
      if (!code || code === '0x') {
        this.setProblem(
          `forwarderFactory ${factory} has no code on chain ${this.config.chainId} (deploy it: admin evm deploy-factory)`,
        );
        return;
      }
      const probe = { payout: '0x000000000000000000000000000000000000dEaD' as Address, salt: keccak256('0x01') };
      const [implementation, predicted] = await Promise.all([
        this.client.readContract({ address: factory, abi: forwarderFactoryAbi, functionName: 'implementation' }),
        this.client.readContract({
          address: factory,
          abi: forwarderFactoryAbi,
          functionName: 'forwarderAddress',
          args: [probe.payout, probe.salt],
        }),
      ]);
      if (
        getAddress(implementation) !== implementationOf(factory) ||
        getAddress(predicted) !== forwarderAddress(factory, probe.payout, probe.salt)
      ) {
        this.setProblem(`forwarderFactory ${factory} computes other forwarder addresses than this service`);
        return;
      }
      this.state.factoryProblem = null;
      this.deps.logger.info('forwarder factory checked', { network: this.network, factory });
    } catch (e) {
      // A call that reverts (not a ForwarderFactory) is a problem of the address; a node that does not answer is
      // retried on the next pass with payments still refused.
      this.setProblem(`forwarderFactory ${factory} could not be checked: ${this.safe(e)}`);
    }
  }

  private setProblem(problem: string): void {
    if (this.state.factoryProblem !== problem) this.deps.logger.error(problem, { network: this.network });
    this.state.factoryProblem = problem;
  }

  /**
   * Flushes anyone made (the dashboard's wallet, the CLI's calldata, a stranger): a forwarder is swept once each asset
   * of its unswept deposits has a `Flushed` log after them. Returns how many forwarders it marked swept.
   */
  private async reconcile(unswept: Unswept[]): Promise<number> {
    let marked = 0;
    const tip = Number(await this.client.getBlockNumber());
    const listed = new Set(unswept.map((u) => u.forwarder.payment_id));
    for (const id of this.scanned.keys()) if (!listed.has(id)) this.scanned.delete(id);
    for (let i = 0; i < unswept.length; i += 200) {
      const chunk = unswept.slice(i, i + 200);
      // Each forwarder's logs are read once per block: from its deposits on the first time it is listed, then only
      // the blocks since the last pass (a long-unswept forwarder never makes a node search its whole history again).
      const fromOf = (u: Unswept) => (this.scanned.get(u.forwarder.payment_id)?.through ?? u.throughHeight) + 1;
      const from = Math.min(...chunk.map(fromOf));
      if (from <= tip) {
        const logs = await this.client.getLogs({
          address: chunk.map((u) => u.forwarder.address as Address),
          event: FLUSHED,
          fromBlock: BigInt(from),
          toBlock: BigInt(tip),
        });
        for (const l of logs) {
          if (l.blockNumber === null || l.transactionHash === null || !l.args.token) continue;
          const u = chunk.find((x) => x.forwarder.address === getAddress(l.address));
          if (!u || Number(l.blockNumber) < fromOf(u)) continue;
          const seen = this.scanned.get(u.forwarder.payment_id) ?? { through: tip, flushes: [] };
          seen.flushes.push({
            forwarder: getAddress(l.address),
            token: getAddress(l.args.token),
            block: Number(l.blockNumber),
            tx: l.transactionHash,
          });
          this.scanned.set(u.forwarder.payment_id, seen);
        }
      }
      for (const u of chunk) {
        const seen = this.scanned.get(u.forwarder.payment_id) ?? { through: tip, flushes: [] };
        seen.through = Math.max(seen.through, tip);
        this.scanned.set(u.forwarder.payment_id, seen);
        const c = coverage(u, seen.flushes, this.tokenOf);
        if (!('through' in c)) continue;
        await markSwept(this.deps.db, u.forwarder.payment_id, {
          throughHeight: c.through,
          txHash: c.tx,
          at: this.deps.clock.now(),
        });
        this.scanned.delete(u.forwarder.payment_id);
        marked++;
      }
    }
    return marked;
  }

  /** The token a deposit's asset is flushed as: its contract, or the zero address for the native coin. */
  private readonly tokenOf = (asset: string): Address =>
    (this.config.tokens.find((t) => t.asset === asset)?.contract as Address | undefined) ?? zeroAddress;

  /** The relayer's transaction in flight, if any: settles it once mined. True while one is still pending. */
  private async followPending(confirmedHeight: number): Promise<boolean> {
    const db = this.deps.db;
    const sweep = await db
      .selectFrom('evm_sweeps')
      .selectAll()
      .where('network', '=', this.network)
      .where('status', '=', 'pending')
      .orderBy('created_at')
      .executeTakeFirst();
    if (!sweep) return false;
    const receipt = await this.client.getTransactionReceipt({ hash: sweep.tx_hash as Hex }).catch(() => null);
    const now = this.deps.clock.now();
    if (!receipt) {
      const known = await this.client.getTransaction({ hash: sweep.tx_hash as Hex }).catch(() => null);
      if (!known) {
        // Dropped from the node's pool (a restart, a node switch): the same signed transaction goes out again.
        try {
          await this.client.sendRawTransaction({ serializedTransaction: sweep.raw_tx as Hex });
        } catch (e) {
          await this.settle(sweep.id, { status: 'failed', error: this.safe(e), at: now });
          return false;
        }
      }
      this.state.waiting = `sweep transaction ${sweep.tx_hash} is waiting to be mined`;
      return true;
    }
    const block = Number(receipt.blockNumber);
    const fee = receipt.gasUsed * receipt.effectiveGasPrice;
    const mined = { block, gasUsed: receipt.gasUsed, fee, at: now };
    if (receipt.status !== 'success') {
      await this.settle(sweep.id, { ...mined, status: 'failed', error: 'the transaction reverted' });
      return false;
    }
    const flushes = parseEventLogs({ abi: forwarderAbi, logs: receipt.logs, eventName: 'Flushed' }).map((l) => ({
      forwarder: getAddress(l.address),
      token: getAddress(l.args.token),
      block,
      tx: sweep.tx_hash as Hex,
    }));
    const members = (
      await unsweptForwarders(db, { network: this.network, chainKey: this.key, confirmedHeight, now })
    ).filter((u) => u.forwarder.pending_sweep_id === sweep.id);
    let swept = 0;
    const refused: { paymentId: string; error: string }[] = [];
    for (const u of members) {
      const c = coverage(u, flushes, this.tokenOf);
      if ('through' in c) {
        await markSwept(db, u.forwarder.payment_id, { throughHeight: c.through, txHash: c.tx, at: now });
        swept++;
      } else
        refused.push({
          paymentId: u.forwarder.payment_id,
          error: `the payout did not take the ${c.missing} sent to it`,
        });
    }
    await this.settle(sweep.id, { ...mined, status: 'succeeded', refused });
    this.deps.logger.info('forwarders swept', {
      network: this.network,
      tx: sweep.tx_hash,
      forwarders: swept,
      refused: refused.length,
      gas_used: receipt.gasUsed.toString(),
      fee: formatEther(fee),
    });
    return false;
  }

  /**
   * Records how a relayer transaction ended. Its forwarders leave it: a failed one's (or one whose payout refused an
   * asset) wait out a growing backoff before the next try; the others were marked swept already.
   */
  private async settle(
    id: string,
    s: {
      status: 'succeeded' | 'failed';
      block?: number;
      gasUsed?: bigint;
      fee?: bigint;
      error?: string;
      refused?: { paymentId: string; error: string }[];
      at: number;
    },
  ): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
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
        .select(['payment_id', 'sweep_attempts'])
        .where('pending_sweep_id', '=', id)
        .execute();
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
                  next_sweep_at: s.at + backoffMs(attempts),
                  sweep_error: error,
                }
              : { pending_sweep_id: null },
          )
          .where('payment_id', '=', m.payment_id)
          .execute();
      }
    });
    if (s.status === 'failed')
      this.deps.logger.warn('forwarder sweep failed', { network: this.network, sweep: id, error: s.error });
  }

  /** Sends one batch when it is due, the gas price is within the limit and the relayer can pay for it. */
  private async relay(due: Unswept[]): Promise<void> {
    const account = this.account as NonNullable<typeof this.account>;
    const now = this.deps.clock.now();
    const balance = await this.client.getBalance({ address: account.address });
    this.state.relayerBalanceWei = balance;
    if (balance < this.fwd.lowBalanceWei)
      this.warnOnce(`relayer ${account.address} on ${this.network} is low: ${formatEther(balance)} left`);
    this.state.waiting = null;
    if (due.length === 0) return;
    const oldest = Math.min(...due.map((u) => u.oldestSeenAt));
    if (due.length < this.fwd.batchSize && now - oldest < this.fwd.maxWaitMs) {
      this.state.waiting = `batching: ${due.length} of ${this.fwd.batchSize} forwarders, sent at the latest ${new Date(oldest + this.fwd.maxWaitMs).toISOString()}`;
      return;
    }
    const gasPrice = await this.client.getGasPrice();
    if (this.fwd.maxGasPriceWei !== null && gasPrice > this.fwd.maxGasPriceWei) {
      this.state.waiting = `gas price ${formatGwei(gasPrice)} gwei is above sweepMaxGasPriceGwei ${formatGwei(this.fwd.maxGasPriceWei)}`;
      return;
    }
    const sendable = await this.sendable(due.slice(0, this.fwd.batchSize), account.address, now);
    if (!sendable) return;
    const { batch, data } = sendable;
    const to = this.fwd.factory;
    const gas = (sendable.gas * 12n) / 10n;
    const cost = gas * gasPrice;
    if (balance < cost) {
      this.state.waiting = `relayer ${account.address} holds ${formatEther(balance)}, a sweep of ${batch.length} forwarders needs about ${formatEther(cost)}: fund it`;
      this.warnOnce(this.state.waiting);
      return;
    }
    const nonce = await this.client.getTransactionCount({ address: account.address, blockTag: 'pending' });
    const wallet = createWalletClient({ account, transport: http(this.config.rpcUrl, { retryCount: 0 }) });
    const raw = await wallet.signTransaction({
      to,
      data,
      gas,
      gasPrice,
      nonce,
      chain: null,
      type: 'legacy',
      chainId: this.config.chainId,
    } as Parameters<typeof wallet.signTransaction>[0]);
    const hash = keccak256(raw);
    const id = newId('swp');
    await this.deps.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('evm_sweeps')
        .values({
          id,
          network: this.network,
          sender: account.address,
          nonce,
          tx_hash: hash,
          raw_tx: raw,
          forwarders: batch.length,
          status: 'pending',
          gas_used: null,
          fee_wei: null,
          block_height: null,
          error: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await trx
        .updateTable('evm_forwarders')
        .set({ pending_sweep_id: id })
        .where(
          'payment_id',
          'in',
          batch.map((u) => u.forwarder.payment_id),
        )
        .execute();
    });
    try {
      await this.client.sendRawTransaction({ serializedTransaction: raw });
      this.state.waiting = `sweep transaction ${hash} is waiting to be mined`;
    } catch (e) {
      await this.settle(id, { status: 'failed', error: this.safe(e), at: now });
    }
  }

  /**
   * The batch without the forwarders whose flush would revert (a token that refuses its payout: a blacklisted or
   * paused token): one of them must not hold back every other merchant's sweep. Each is tried alone only when the
   * whole batch fails its estimate; those that fail alone wait out a backoff with the node's reason recorded.
   * Returns what to send with its call data and gas estimate, or null when nothing is left.
   */
  private async sendable(
    batch: Unswept[],
    from: Address,
    now: number,
  ): Promise<{ batch: Unswept[]; data: Hex; gas: bigint } | null> {
    const estimate = async (list: Unswept[]) => {
      const data = flushManyData(list.map((u) => sweepEntry(u, this.config)));
      return { batch: list, data, gas: await this.client.estimateGas({ account: from, to: this.fwd.factory, data }) };
    };
    try {
      return await estimate(batch);
    } catch {
      const ok: Unswept[] = [];
      for (const u of batch) {
        try {
          await estimate([u]);
          ok.push(u);
        } catch (e) {
          const attempts = Number(u.forwarder.sweep_attempts) + 1;
          await this.deps.db
            .updateTable('evm_forwarders')
            .set({ sweep_attempts: attempts, next_sweep_at: now + backoffMs(attempts), sweep_error: this.safe(e) })
            .where('payment_id', '=', u.forwarder.payment_id)
            .execute();
          this.deps.logger.warn('forwarder cannot be flushed', {
            network: this.network,
            forwarder: u.forwarder.address,
            error: this.safe(e),
          });
        }
      }
      return ok.length > 0 ? estimate(ok) : null;
    }
  }

  private warnOnce(message: string): void {
    const now = this.deps.clock.now();
    if (now - this.lastWarnAt < 600_000) return;
    this.lastWarnAt = now;
    this.deps.logger.warn(message, { network: this.network });
  }

  /** An RPC failure without the URL (it may carry an API key). */
  private safe(e: unknown): string {
    const short = e instanceof BaseError ? e.shortMessage : toError(e).message;
    return short.split(this.config.rpcUrl).join('<rpc url>');
  }
}

function totals(list: Unswept[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const u of list) for (const [a, v] of u.units) out.set(a, (out.get(a) ?? 0n) + v);
  return out;
}
