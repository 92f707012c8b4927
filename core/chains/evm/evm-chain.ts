import {
  BaseError,
  BlockNotFoundError,
  createPublicClient,
  getAddress,
  type Hex,
  http,
  type PublicClient,
  toHex,
} from 'viem';
import { type ChainBlock, ChainLagError, type ChainSource, type ChainTransfer, chainKey } from '../types.js';
import type { EvmNetworkConfig } from './config.js';

/** keccak256("Transfer(address,address,uint256)"): ERC-20 and ERC-721 share it; ERC-721 indexes a 4th topic. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/**
 * Native transfers carry index -1: ERC-20 deposits use the log index (0 and up), so the (txid, index) key
 * of a deposit can never collide between the two kinds within one transaction.
 */
export const NATIVE_INDEX = -1;

interface RpcLog {
  address: Hex;
  topics: Hex[];
  data: Hex;
  blockHash: Hex | null;
  transactionHash: Hex | null;
  logIndex: Hex | null;
  removed?: boolean;
}

export interface EvmChainOptions {
  /** A ready viem client (tests, custom transports); by default one over HTTP with the configured timeout. */
  client?: PublicClient;
  /**
   * The watcher's stored checkpoint height: after a restart, a node still behind it is lagging, not reorganised.
   * @default none (only tips seen by this process count)
   */
  checkpointHeight?: () => Promise<number | null>;
}

/**
 * Farther behind than this, a node is not lagging: the chain was reset or replaced (a local dev node restarted).
 * Far beyond any reorg of a live network (Ethereum finalises after 64 blocks).
 */
export const MAX_NODE_LAG = 128;

/**
 * One EVM network (Ethereum, BNB Smart Chain, Polygon, Base: same code, different configuration) as a chain source:
 * native transfers from the block's transactions, ERC-20 transfers from `eth_getLogs` filtered by the configured
 * token contracts and the Transfer topic. Work per block follows the block's contents; matching recipients to
 * payments is the watcher's indexed address lookup, so the number of open payments does not enter here.
 *
 * Not seen: native coin moved by contracts (internal transactions, which need trace APIs). There is no mempool
 * view either; a deposit shows from its first block on.
 */
export class EvmChain implements ChainSource {
  readonly key: string;
  readonly mode = 'live' as const;
  readonly network: string;
  readonly requiredConfirmations: number;
  readonly pollIntervalMs: number;
  readonly explorerUrl: string | null;
  private readonly client: PublicClient;
  private readonly contracts: Hex[];
  private readonly assetOfContract: Map<string, string>;
  /** Highest tip any answer showed: a later answer without a block below it means a lagging node, not a reorg. */
  private highestSeen = -1;
  private seeded = false;

  constructor(
    readonly config: EvmNetworkConfig,
    private readonly opts: EvmChainOptions = {},
  ) {
    this.network = config.network;
    this.key = chainKey('live', config.network);
    this.requiredConfirmations = config.confirmations;
    this.pollIntervalMs = config.pollIntervalMs;
    this.explorerUrl = config.explorerUrl;
    // cacheTime 0: viem would otherwise answer block numbers from a 4 s cache and hide new blocks from a fast poll.
    // retryCount 0: the watcher owns retries and backoff, so a dead RPC is reported at once, not after 3 silent tries.
    this.client =
      opts.client ??
      createPublicClient({
        cacheTime: 0,
        transport: http(config.rpcUrl, { timeout: config.timeoutMs, retryCount: 0, batch: { wait: 0 } }),
      });
    this.contracts = config.tokens.map((t) => t.contract as Hex);
    this.assetOfContract = new Map(config.tokens.map((t) => [t.contract.toLowerCase(), t.asset]));
  }

  /** The node's tip, after checking it serves the configured chain: a wrong RPC URL must not feed us blocks. */
  async probe(): Promise<{ height: number; hash: string }> {
    const [chainId, block] = await this.rpc(() =>
      Promise.all([this.client.getChainId(), this.client.getBlock({ blockTag: 'latest' })]),
    );
    if (chainId !== this.config.chainId)
      throw new Error(`RPC of ${this.network} serves chain id ${chainId}, configured ${this.config.chainId}`);
    if (block.number === null || block.hash === null) throw new Error('latest block has no number or hash');
    return { height: Number(block.number), hash: block.hash };
  }

  /**
   * The tip for the watcher. A tip below one already seen is a node lagging behind (load-balanced RPCs do, by a
   * block or two): the sync fails and is retried, rather than rolling deposits back as if blocks had vanished. A real
   * reorg shows once the node is back at that height, as a different hash there.
   */
  async head(): Promise<{ height: number; hash: string }> {
    if (!this.seeded) {
      this.highestSeen = Math.max(this.highestSeen, (await this.opts.checkpointHeight?.()) ?? -1);
      this.seeded = true;
    }
    const tip = await this.probe();
    const lag = this.highestSeen - tip.height;
    if (lag > 0 && lag <= MAX_NODE_LAG)
      throw new ChainLagError(
        `RPC of ${this.network} is behind: tip ${tip.height}, the chain had reached ${this.highestSeen}`,
      );
    this.highestSeen = tip.height;
    return tip;
  }

  /** Header only: the watcher's reorg check needs no transactions. */
  async blockHash(height: number): Promise<string | null> {
    try {
      const block = await this.rpc(() => this.client.getBlock({ blockNumber: BigInt(height) }));
      return block.hash;
    } catch (e) {
      if (e instanceof BlockNotFoundError) return null;
      throw e;
    }
  }

  async blockAt(height: number): Promise<ChainBlock | null> {
    const [block, logs] = await Promise.all([
      this.rpc(() => this.client.getBlock({ blockNumber: BigInt(height), includeTransactions: true })).catch(
        (e: unknown) => {
          if (e instanceof BlockNotFoundError) return null;
          throw e;
        },
      ),
      this.transferLogs(height),
    ]);
    if (!block || block.hash === null) return null;
    // Both reads went out together; if a reorg slipped between them the logs belong to another block. Report
    // "not there yet" and let the next sync read it again, rather than mixing two blocks.
    if (logs.some((l) => l.blockHash !== block.hash)) return null;

    const transfers: ChainTransfer[] = [];
    for (const tx of block.transactions) {
      if (tx.to && tx.value > 0n) {
        transfers.push({
          txid: tx.hash,
          index: NATIVE_INDEX,
          to: getAddress(tx.to),
          extraId: null,
          asset: this.config.nativeAsset,
          amountUnits: tx.value,
        });
      }
    }
    for (const log of logs) {
      const t = this.tokenTransfer(log);
      if (t) transfers.push(t);
    }
    return {
      height,
      hash: block.hash,
      parentHash: block.parentHash,
      timestamp: Number(block.timestamp) * 1000,
      transfers,
    };
  }

  async mempool(): Promise<ChainTransfer[]> {
    return [];
  }

  /** A fresh watcher starts at the tip: a new installation has no payments in older blocks. */
  async startHeight(): Promise<number> {
    return (await this.probe()).height;
  }

  private async transferLogs(height: number): Promise<RpcLog[]> {
    if (this.contracts.length === 0) return [];
    const at = toHex(height);
    const logs = (await this.rpc(() =>
      this.client.request({
        method: 'eth_getLogs',
        params: [{ fromBlock: at, toBlock: at, address: this.contracts, topics: [TRANSFER_TOPIC] }],
      }),
    )) as unknown as RpcLog[];
    return logs.filter((l) => !l.removed);
  }

  /**
   * Runs an RPC call and rewrites its failure without the URL: viem's messages quote the request URL, and RPC
   * providers put API keys in it (`.../v3/KEY`, `?apikey=`), so the raw message must never reach a log.
   */
  private async rpc<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (e) {
      if (e instanceof BlockNotFoundError) throw e;
      const short = e instanceof BaseError ? e.shortMessage : e instanceof Error ? e.message : String(e);
      const details = e instanceof BaseError && e.details ? ` (${e.details})` : '';
      const text = `${short}${details}`.split(this.config.rpcUrl).join('<rpc url>');
      throw new Error(`RPC of ${this.network}: ${text}`);
    }
  }

  private tokenTransfer(log: RpcLog): ChainTransfer | null {
    const asset = this.assetOfContract.get(log.address.toLowerCase());
    const to = log.topics[2];
    // ERC-20: from and to indexed, the amount as 32 bytes of data. Anything else under this topic is not ours.
    if (!asset || log.topics.length !== 3 || !to || log.data.length !== 66 || !log.transactionHash || !log.logIndex)
      return null;
    return {
      txid: log.transactionHash,
      index: Number(log.logIndex),
      to: getAddress(`0x${to.slice(26)}`),
      extraId: null,
      asset,
      amountUnits: BigInt(log.data),
    };
  }
}
