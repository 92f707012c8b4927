import type { Kysely } from 'kysely';
import type { Address, PublicClient } from 'viem';
import type { EvmNetworkConfig, ForwarderConfig } from '../chains/evm/config.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { Database } from '../store/schema.js';

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

/** What every step of a sweep pass works with: one network's node, settings, store and status. */
export interface SweepContext {
  network: string;
  /** The deposits' chain key (`live:eth`). */
  chainKey: string;
  config: EvmNetworkConfig;
  fwd: ForwarderConfig;
  client: PublicClient;
  db: Kysely<Database>;
  clock: Clock;
  logger: Logger;
  /** The sweeper's status, which the steps update as they learn. */
  status: SweeperStatus;
  /** The token a deposit's asset is flushed as: its contract, or the zero address for the native coin. */
  tokenOf(asset: string): Address;
  /** An RPC failure as text without the node's URL (it may carry an API key). */
  safe(e: unknown): string;
  /** Logs a warning at most every 10 minutes (a relayer low on gas is said once, not every pass). */
  warnOnce(message: string): void;
}
