import type { Kysely } from 'kysely';
import type { Address, PublicClient } from 'viem';
import type { Clock } from '../../../clock.js';
import type { Logger } from '../../../log.js';
import type { Database } from '../../../store/schema.js';
import type { SweeperStatus } from '../../family.js';
import type { EvmNetworkConfig, ForwarderConfig } from '../config.js';

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
