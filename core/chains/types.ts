import type { Kysely } from 'kysely';
import type { Payment } from '../payments/payment.js';
import type { Database } from '../store/schema.js';

/**
 * What the watcher needs from a chain, real or simulated. Sources return transfers in the same canonical
 * address format the payments store (EIP-55 for EVM), so matching is an indexed equality lookup.
 */
export interface ChainTransfer {
  txid: string;
  /** Output index (UTXO), log index (ERC-20), -1 (EVM native value) or 0: unique with txid on the chain. */
  index: number;
  to: string;
  extraId: string | null;
  /** Catalog asset code of what moved (a token transfer names the token, a native one the coin). */
  asset: string;
  amountUnits: bigint;
}

export interface ChainBlock {
  height: number;
  hash: string;
  parentHash: string;
  /** Block time in ms; a deposit counts as first seen no later than the block that carried it. */
  timestamp: number;
  transfers: ChainTransfer[];
}

export interface ChainSource {
  /** Unique chain key, `${mode === 'test' ? 'sandbox' : 'live'}:${network}`. */
  key: string;
  network: string;
  mode: 'test' | 'live';
  requiredConfirmations: number;
  /** How often the watcher polls it. */
  pollIntervalMs: number;
  /** Public block explorer base of a live chain: a transaction is `${explorerUrl}/tx/${txid}`. */
  explorerUrl?: string | null;
  /** Highest block the chain has. */
  head(): Promise<{ height: number; hash: string }>;
  /** A block with the transfers it carries, or null when the height does not exist (yet). */
  blockAt(height: number): Promise<ChainBlock | null>;
  /** Hash of the block at a height, or null when there is none: lets the reorg check skip fetching transfers. */
  blockHash?(height: number): Promise<string | null>;
  /** Transfers seen but not yet in a block (0 confirmations). Sources without a mempool view return []. */
  mempool(): Promise<ChainTransfer[]>;
  /** Height to start from when no checkpoint exists (a new watcher need not replay history). */
  startHeight(): Promise<number>;
  /**
   * Where the node holds one transaction: in a block, in its pool (`block` null), or nowhere (null). Given by sources
   * whose mempool() cannot see transfers to addresses they do not own (Monero: a view key sees only the merchant's
   * outputs), so a refund proved sent and then unmined by a reorg is followed by its txid, not dropped for missing
   * from a pool view that never showed it.
   */
  transactionAt?(txid: string): Promise<TransactionPlace | null>;
}

export interface TransactionPlace {
  block: { height: number; hash: string } | null;
}

/**
 * The source answered, but behind a tip already seen (a load-balanced RPC lagging by a block or two, a node
 * restarted from an older state): the sync waits for it; the chain stays payable, since its node does answer.
 */
export class ChainLagError extends Error {
  override name = 'ChainLagError';
}

export function chainKey(mode: 'test' | 'live', network: string): string {
  return `${mode === 'test' ? 'sandbox' : 'live'}:${network}`;
}

/** What deriving a payment's state needs to know of its chain (ChainRegistry implements it). */
export interface ChainView {
  /**
   * Current head height of the payment's chain, or null when nothing was observed yet. Reads through `db` (the
   * caller's transaction: SQLite has one connection, so a second one would wait forever).
   */
  headOf(chainKey: string, db: Kysely<Database>): Promise<number | null>;
  requiredConfirmations(chainKey: string): number;
  chainKeyOf(p: Pick<Payment, 'mode' | 'network'>): string;
}
