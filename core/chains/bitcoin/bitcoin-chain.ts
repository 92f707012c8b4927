import { type ChainBlock, type ChainSource, type ChainTransfer, chainKey } from '../types.js';
import type { BitcoinNetworkConfig } from './config.js';
import { amountUnits } from './exact-json.js';
import { BitcoinRpc, RPC_INVALID_ADDRESS_OR_KEY, RPC_INVALID_PARAMETER, RpcError } from './rpc.js';
import { addressOfScript } from './utxo-script.js';

export interface BitcoinChainOptions {
  /** A ready client (tests count its requests); by default one from the configuration. */
  rpc?: BitcoinRpc;
  /**
   * The watcher's stored checkpoint height: after a restart, a node still behind it is lagging, not reorganised.
   * @default none (only tips seen by this process count)
   */
  checkpointHeight?: () => Promise<number | null>;
  /**
   * Mempool transactions remembered between polls. Beyond it, new transactions are not fetched until room frees up
   * (they show from their block on). A full Bitcoin mempool holds some 100k-300k transactions.
   * @default 300000
   */
  mempoolCacheSize?: number;
}

/** Farther behind than this, a node is not lagging: the chain was reset or replaced (a regtest node restarted). */
export const MAX_NODE_LAG = 128;
/** A node this many blocks short of the headers it knows is still catching up, not at the tip. */
const SYNCING_MARGIN = 6;
/** getrawtransaction calls per HTTP request: one round trip per batch, answers of a few hundred kB. */
const TX_BATCH = 250;
const NONE: readonly ChainTransfer[] = Object.freeze([]);

interface BlockchainInfo {
  chain: string;
  blocks: number;
  headers: number;
  bestblockhash: string;
}

interface RpcBlock {
  hash: string;
  height: number;
  confirmations: number;
  time: number;
  previousblockhash?: string;
  tx: unknown[];
}

interface RpcTx {
  txid?: unknown;
  blockhash?: unknown;
  vout?: unknown;
}

interface RpcOutput {
  value?: unknown;
  n?: unknown;
  scriptPubKey?: { hex?: unknown };
}

/**
 * One Bitcoin-family network (Bitcoin, Litecoin, Dogecoin: same code, different configuration) as a chain source, over
 * a Bitcoin Core-compatible node's JSON-RPC. Every output whose script is this chain's receive kind (P2WPKH for BTC and
 * LTC, P2PKH for DOGE) becomes a transfer to the address our own encoder gives that script for the configured chain and
 * network; the node's address strings are never read. Work per block follows the block's outputs; matching them to
 * payments is the watcher's indexed address lookup, so the number of open payments does not enter here.
 *
 * The mempool view keeps each transaction's decoded outputs by txid, so a poll fetches only transactions it has not
 * seen: one request for the txid list, plus one per 250 new transactions.
 *
 * @example
 * const ltc = new BitcoinChain(toBitcoinNetworkConfig('ltc', utxoNetworkSchemas.ltc.parse(input)), { checkpointHeight });
 * await ltc.probe(); // { height, hash } of the node's tip, or a failure naming the chain mismatch
 * registry.add(ltc); new ChainWatcher(deps, ltc).start(ltc.pollIntervalMs);
 */
export class BitcoinChain implements ChainSource {
  readonly key: string;
  readonly mode = 'live' as const;
  readonly network: string;
  readonly requiredConfirmations: number;
  readonly pollIntervalMs: number;
  readonly rpc: BitcoinRpc;
  /** Highest tip any answer showed: a later answer without a block below it means a lagging node, not a reorg. */
  private highestSeen = -1;
  private seeded = false;
  /** The tip the watcher last asked for, and the last block it read: what the watcher knows of the chain. */
  private lastHead: string | null = null;
  private lastRead: string | null = null;
  private readonly pool = new Map<string, readonly ChainTransfer[]>();
  private readonly mempoolCacheSize: number;

  constructor(
    readonly config: BitcoinNetworkConfig,
    private readonly opts: BitcoinChainOptions = {},
  ) {
    this.network = config.network;
    this.key = chainKey('live', config.network);
    this.requiredConfirmations = config.confirmations;
    this.pollIntervalMs = config.pollIntervalMs;
    this.mempoolCacheSize = opts.mempoolCacheSize ?? 300_000;
    this.rpc =
      opts.rpc ??
      new BitcoinRpc({ url: config.rpcUrl, auth: config.auth, timeoutMs: config.timeoutMs, label: config.network });
  }

  /** The node's tip, after checking it serves the configured chain: a wrong RPC URL must not feed us blocks. */
  async probe(): Promise<{ height: number; hash: string }> {
    const info = await this.blockchainInfo();
    return { height: info.blocks, hash: info.bestblockhash };
  }

  /**
   * The tip for the watcher. A tip below one already seen is a node lagging behind (one restarted from an older
   * state, or a load balancer's other node): the sync fails and is retried, rather than rolling deposits back as if
   * blocks had vanished. A real reorg shows once the node is back at that height, as a different hash there.
   */
  async head(): Promise<{ height: number; hash: string }> {
    if (!this.seeded) {
      this.highestSeen = Math.max(this.highestSeen, (await this.opts.checkpointHeight?.()) ?? -1);
      this.seeded = true;
    }
    const tip = await this.probe();
    const lag = this.highestSeen - tip.height;
    if (lag > 0 && lag <= MAX_NODE_LAG)
      throw new Error(`RPC of ${this.network} is behind: tip ${tip.height}, the chain had reached ${this.highestSeen}`);
    this.highestSeen = tip.height;
    this.lastHead = tip.hash;
    return tip;
  }

  /** getblockhash only: the watcher's reorg check needs no transactions. */
  async blockHash(height: number): Promise<string | null> {
    try {
      return await this.rpc.call<string>('getblockhash', [height]);
    } catch (e) {
      // -8: "Block height out of range", above the tip (or below zero).
      if (e instanceof RpcError && e.code === RPC_INVALID_PARAMETER) return null;
      throw e;
    }
  }

  async blockAt(height: number): Promise<ChainBlock | null> {
    const hash = await this.blockHash(height);
    if (hash === null) return null;
    const block = await this.rpc.call<RpcBlock>('getblock', [hash, 2]);
    if (typeof block?.hash !== 'string' || !Array.isArray(block.tx) || typeof block.time !== 'number')
      throw new Error(`RPC of ${this.network}: getblock: unexpected answer`);
    // Reorganised away between the two calls (the node still serves stale blocks by hash): "not there yet", and the
    // next sync reads the height again rather than taking a block off the main chain.
    if (block.confirmations === -1) return null;
    this.lastRead = block.hash;
    const transfers: ChainTransfer[] = [];
    for (const tx of block.tx) for (const t of this.transfersOf(tx)) transfers.push(t);
    return {
      height,
      hash: block.hash,
      parentHash: block.previousblockhash ?? '',
      timestamp: block.time * 1000,
      transfers,
    };
  }

  /**
   * Matching outputs of every transaction in the node's mempool. A transaction that left it was mined, replaced or
   * dropped; while the node's tip differs from the last block the watcher read (or, before it read any, from the tip
   * `head()` last gave), a block the watcher has not applied yet may hold it, so it stays in the view until then: a
   * mined deposit never flickers to "removed" and back.
   */
  async mempool(): Promise<ChainTransfer[]> {
    // In this order: a block connected between the two calls shows as a new tip, never as silently missing txids.
    const [pool, tip] = await this.rpc.batch([
      { method: 'getrawmempool', params: [false] },
      { method: 'getbestblockhash' },
    ]);
    if (!pool?.ok) throw pool?.error ?? new Error(`RPC of ${this.network}: getrawmempool: no answer`);
    if (!tip?.ok) throw tip?.error ?? new Error(`RPC of ${this.network}: getbestblockhash: no answer`);
    if (!Array.isArray(pool.value)) throw new Error(`RPC of ${this.network}: getrawmempool: unexpected answer`);
    const txids = pool.value as string[];
    const current = new Set(txids);
    const known = this.lastRead ?? this.lastHead;
    const unreadBlocks = known !== null && tip.value !== known;
    if (!unreadBlocks) for (const id of this.pool.keys()) if (!current.has(id)) this.pool.delete(id);

    const room = this.mempoolCacheSize - this.pool.size;
    const missing: string[] = [];
    for (const id of txids) {
      if (missing.length >= room) break;
      if (!this.pool.has(id)) missing.push(id);
    }
    for (let i = 0; i < missing.length; i += TX_BATCH) {
      const chunk = missing.slice(i, i + TX_BATCH);
      const answers = await this.rpc.batch(chunk.map((id) => ({ method: 'getrawtransaction', params: [id, true] })));
      answers.forEach((a, j) => {
        const id = chunk[j] as string;
        if (!a.ok) {
          // -5: gone since getrawmempool (mined or replaced); it is simply not in this view.
          if (a.error.code === RPC_INVALID_ADDRESS_OR_KEY) return;
          throw a.error;
        }
        // Mined since (a node with -txindex still answers): the block will report it.
        if ((a.value as RpcTx | null)?.blockhash !== undefined) return;
        const transfers = this.transfersOf(a.value);
        this.pool.set(id, transfers.length === 0 ? NONE : transfers);
      });
    }
    const out: ChainTransfer[] = [];
    for (const transfers of this.pool.values()) for (const t of transfers) out.push(t);
    return out;
  }

  /**
   * A fresh watcher starts at the tip: a new installation has no payments in older blocks. A node still catching up
   * has no tip yet; starting there would replay everything it has left to download.
   */
  async startHeight(): Promise<number> {
    const info = await this.blockchainInfo();
    if (info.headers - info.blocks > SYNCING_MARGIN)
      throw new Error(`RPC of ${this.network}: the node is still syncing (block ${info.blocks} of ${info.headers})`);
    return info.blocks;
  }

  private async blockchainInfo(): Promise<BlockchainInfo> {
    const info = await this.rpc.call<BlockchainInfo>('getblockchaininfo');
    if (typeof info?.chain !== 'string' || typeof info.blocks !== 'number' || typeof info.bestblockhash !== 'string')
      throw new Error(`RPC of ${this.network}: getblockchaininfo: unexpected answer`);
    if (info.chain !== this.config.chain)
      throw new Error(`RPC of ${this.network} serves chain "${info.chain}", configured "${this.config.chain}"`);
    return { ...info, headers: typeof info.headers === 'number' ? info.headers : info.blocks };
  }

  /** Outputs of one transaction (getrawtransaction / getblock verbosity 2 shape) that pay this chain's receive kind. */
  private transfersOf(raw: unknown): ChainTransfer[] {
    const tx = raw as RpcTx | null;
    if (typeof tx?.txid !== 'string' || !Array.isArray(tx.vout))
      throw new Error(`RPC of ${this.network}: a transaction without txid or outputs`);
    const out: ChainTransfer[] = [];
    for (const o of tx.vout as RpcOutput[]) {
      const script = o?.scriptPubKey?.hex;
      // Litecoin's MWEB outputs carry no script: not an address of ours.
      if (typeof script !== 'string') continue;
      const to = addressOfScript(script, this.config.network, this.config.chain);
      if (to === null) continue;
      if (typeof o.n !== 'number') throw new Error(`RPC of ${this.network}: an output of ${tx.txid} has no index`);
      const units = amountUnits(o.value);
      // A zero-value output pays nothing; counting it would let anyone move a payment to "confirming" for free.
      if (units <= 0n) continue;
      out.push({ txid: tx.txid, index: o.n, to, extraId: null, asset: this.config.nativeAsset, amountUnits: units });
    }
    return out;
  }
}
