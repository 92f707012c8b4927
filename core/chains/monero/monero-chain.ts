import { type ChainBlock, type ChainSource, type ChainTransfer, chainKey, type TransactionPlace } from '../types.js';
import type { MoneroNetworkConfig } from './config.js';
import { type MoneroOutput, type MoneroViewKey, scanOutputs } from './monero.js';

/** monerod's JSON-RPC error for a height above its tip (`get_block`, `get_block_header_by_height`). */
const TOO_BIG_HEIGHT = -2;
/** Transactions per `get_transactions` request. */
const TX_BATCH = 100;

export class MoneroRpcError extends Error {
  override name = 'MoneroRpcError';
  constructor(
    message: string,
    readonly code: number | null,
  ) {
    super(message);
  }
}

interface TxJson {
  version?: number;
  vout?: { amount?: number; target?: { tagged_key?: { key: string; view_tag: string }; key?: string } }[];
  extra?: number[];
  rct_signatures?: { type?: number; ecdhInfo?: { amount?: string }[]; outPk?: string[] };
}

/** The RingCT outputs of a transaction's JSON (coinbase and pre-RingCT transactions have none worth scanning). */
function outputsOf(tx: TxJson): MoneroOutput[] | null {
  const rct = tx.rct_signatures;
  if (!rct?.type || !Array.isArray(tx.vout) || !Array.isArray(tx.extra)) return null;
  const out: MoneroOutput[] = [];
  for (const [i, o] of tx.vout.entries()) {
    const tagged = o.target?.tagged_key;
    const key = tagged?.key ?? o.target?.key;
    const encryptedAmount = rct.ecdhInfo?.[i]?.amount;
    const commitment = rct.outPk?.[i];
    // Only the compact 8-byte amount encoding (RingCT type 4+, every transaction since 2019) is read.
    if (typeof key !== 'string' || typeof encryptedAmount !== 'string' || encryptedAmount.length !== 16) return null;
    if (typeof commitment !== 'string') return null;
    out.push({ key, viewTag: tagged?.view_tag ?? null, encryptedAmount, commitment });
  }
  return out;
}

export interface MoneroChainOptions {
  /** Every merchant's Monero keys, read at each block and pool poll (a key set a moment ago counts at once). */
  keys(): Promise<MoneroViewKey[]>;
  /** The watcher's stored checkpoint height: after a restart, a node behind it is lagging, not reorganised. */
  checkpointHeight?: () => Promise<number | null>;
}

/**
 * Monero as a chain source, over the merchant's own monerod: each block's and the pool's transactions are scanned
 * with every merchant's view key (core/chains/monero/monero.ts), and an output paying one of their subaddresses becomes
 * a transfer to that subaddress, which the watcher matches to a payment by address like any chain. Any subaddress of
 * any account is recognised, so the service itself has no lookahead limit; the merchant's wallet does (README).
 *
 * Cost: one scalar multiplication per transaction and merchant (two with per-output keys), then a one-byte view tag
 * check per output; only outputs passing it cost more. Pool transactions are scanned once and remembered by txid.
 */
export class MoneroChain implements ChainSource {
  readonly key: string;
  readonly mode = 'live' as const;
  readonly network = 'xmr';
  readonly requiredConfirmations: number;
  readonly pollIntervalMs: number;
  readonly explorerUrl: string | null;
  private highestSeen = -1;
  private seeded = false;
  private lastHead: string | null = null;
  private lastRead: string | null = null;
  /** Pool transactions scanned, by txid, for the key set `poolKeys` names. */
  private readonly pool = new Map<string, ChainTransfer[]>();
  private poolKeys = '';

  constructor(
    readonly config: MoneroNetworkConfig,
    private readonly opts: MoneroChainOptions,
  ) {
    this.key = chainKey('live', 'xmr');
    this.requiredConfirmations = config.confirmations;
    this.pollIntervalMs = config.pollIntervalMs;
    this.explorerUrl = config.explorerUrl;
  }

  async head(): Promise<{ height: number; hash: string }> {
    if (!this.seeded) {
      this.highestSeen = Math.max(this.highestSeen, (await this.opts.checkpointHeight?.()) ?? -1);
      this.seeded = true;
    }
    const h = await this.jsonRpc<{ block_header: { height: number; hash: string } }>('get_last_block_header');
    const tip = { height: h.block_header.height, hash: h.block_header.hash };
    const lag = this.highestSeen - tip.height;
    // A node restarted from an older state: wait for it rather than roll deposits back. popped blocks are a reorg
    // only once a different block stands at that height, which is what the watcher's hash check sees.
    if (lag > 0 && lag <= 128)
      throw new Error(`monerod is behind: tip ${tip.height}, the chain had ${this.highestSeen}`);
    this.highestSeen = tip.height;
    this.lastHead = tip.hash;
    return tip;
  }

  async blockHash(height: number): Promise<string | null> {
    try {
      const r = await this.jsonRpc<{ block_header: { hash: string } }>('get_block_header_by_height', { height });
      return r.block_header.hash;
    } catch (e) {
      if (e instanceof MoneroRpcError && e.code === TOO_BIG_HEIGHT) return null;
      throw e;
    }
  }

  async blockAt(height: number): Promise<ChainBlock | null> {
    let block: { block_header: { hash: string; prev_hash: string; timestamp: number }; tx_hashes?: string[] };
    try {
      block = await this.jsonRpc('get_block', { height });
    } catch (e) {
      if (e instanceof MoneroRpcError && e.code === TOO_BIG_HEIGHT) return null;
      throw e;
    }
    const keys = await this.opts.keys();
    const transfers: ChainTransfer[] = [];
    const hashes = block.tx_hashes ?? [];
    if (keys.length > 0) {
      for (let i = 0; i < hashes.length; i += TX_BATCH) {
        for (const tx of await this.transactions(hashes.slice(i, i + TX_BATCH)))
          transfers.push(...this.scan(keys, tx.hash, tx.json));
      }
    }
    this.lastRead = block.block_header.hash;
    return {
      height,
      hash: block.block_header.hash,
      parentHash: block.block_header.prev_hash,
      timestamp: block.block_header.timestamp * 1000,
      transfers,
    };
  }

  /**
   * Payments to merchants among the pool's transactions. One that left the pool stays in the view while the node's
   * tip differs from the last block the watcher read: a block not applied yet may hold it (no flicker to "removed").
   */
  async mempool(): Promise<ChainTransfer[]> {
    const keys = await this.opts.keys();
    const keySet = keys.map((k) => k.address).join(',');
    if (keySet !== this.poolKeys) {
      this.pool.clear();
      this.poolKeys = keySet;
    }
    const pool = await this.get<{ tx_hashes?: string[] }>('get_transaction_pool_hashes');
    const tip = await this.jsonRpc<{ block_header: { hash: string } }>('get_last_block_header');
    const ids = pool.tx_hashes ?? [];
    const current = new Set(ids);
    const known = this.lastRead ?? this.lastHead;
    if (known === null || tip.block_header.hash === known)
      for (const id of this.pool.keys()) if (!current.has(id)) this.pool.delete(id);
    const missing = ids.filter((id) => !this.pool.has(id));
    for (let i = 0; i < missing.length; i += TX_BATCH) {
      for (const tx of await this.transactions(missing.slice(i, i + TX_BATCH))) {
        // Mined since the hash list was read: its block will report it.
        if (!tx.inPool) continue;
        this.pool.set(tx.hash, keys.length > 0 ? this.scan(keys, tx.hash, tx.json) : []);
      }
    }
    return [...this.pool.values()].flat();
  }

  /** A fresh watcher starts at the tip: a new installation has no payments in older blocks. */
  async startHeight(): Promise<number> {
    return (await this.head()).height;
  }

  /**
   * One transaction for a refund's tx-key proof (core/chains/monero/tx-key.ts): its `extra` and RingCT outputs, and
   * the block it is in (null in the pool). Null when monerod does not know it, or it has no outputs worth reading.
   */
  async transactionAt(txid: string): Promise<TransactionPlace | null> {
    const r = await this.get<{ txs?: { in_pool: boolean; block_height?: number }[] }>('get_transactions', {
      txs_hashes: [txid],
    });
    const t = r.txs?.[0];
    if (!t) return null;
    const height = t.in_pool || t.block_height === undefined ? null : t.block_height;
    const hash = height === null ? null : await this.blockHash(height);
    return { block: height !== null && hash ? { height, hash } : null };
  }

  async proofTransaction(txid: string): Promise<{
    extra: number[];
    outputs: MoneroOutput[];
    block: { height: number; hash: string; time: number | null } | null;
  } | null> {
    const r = await this.get<{
      txs?: { as_json: string; in_pool: boolean; block_height?: number; block_timestamp?: number }[];
    }>('get_transactions', { txs_hashes: [txid], decode_as_json: true });
    const t = r.txs?.[0];
    if (!t) return null;
    const json = JSON.parse(t.as_json) as TxJson;
    const outputs = outputsOf(json);
    if (!outputs || !json.extra) return null;
    const height = t.in_pool || t.block_height === undefined ? null : t.block_height;
    const hash = height === null ? null : await this.blockHash(height);
    // The block's time (seconds, as its miner set it), so a proof can refuse a transfer older than its refund.
    const time = t.block_timestamp ? t.block_timestamp * 1000 : null;
    return { extra: json.extra, outputs, block: height !== null && hash ? { height, hash, time } : null };
  }

  private scan(keys: MoneroViewKey[], txid: string, tx: TxJson): ChainTransfer[] {
    const outputs = outputsOf(tx);
    if (!outputs || !tx.extra) return [];
    const out: ChainTransfer[] = [];
    for (const k of keys)
      for (const o of scanOutputs(k, tx.extra, outputs))
        out.push({ txid, index: o.index, to: o.address, extraId: null, asset: 'XMR', amountUnits: o.amount });
    return out;
  }

  private async transactions(hashes: string[]): Promise<{ hash: string; json: TxJson; inPool: boolean }[]> {
    if (hashes.length === 0) return [];
    const r = await this.get<{ txs?: { tx_hash: string; as_json: string; in_pool: boolean }[] }>('get_transactions', {
      txs_hashes: hashes,
      decode_as_json: true,
    });
    return (r.txs ?? []).map((t) => ({ hash: t.tx_hash, json: JSON.parse(t.as_json) as TxJson, inPool: t.in_pool }));
  }

  private async jsonRpc<T>(method: string, params?: unknown): Promise<T> {
    const body = await this.post<{ result?: T; error?: { code: number; message: string } }>('json_rpc', {
      jsonrpc: '2.0',
      id: 0,
      method,
      ...(params === undefined ? {} : { params }),
    });
    if (body.error) throw new MoneroRpcError(`monerod ${method}: ${body.error.message}`, body.error.code);
    if (body.result === undefined) throw new MoneroRpcError(`monerod ${method}: no result`, null);
    return body.result;
  }

  /** monerod's "other" RPC endpoints (`/get_transactions`...): plain JSON with a `status`. */
  private async get<T>(path: string, params: unknown = {}): Promise<T> {
    const body = await this.post<T & { status?: string }>(path, params);
    if (body.status !== 'OK') throw new MoneroRpcError(`monerod ${path}: ${body.status ?? 'no status'}`, null);
    return body;
  }

  private async post<T>(path: string, payload: unknown): Promise<T> {
    const url = new URL(path, this.config.rpcUrl.endsWith('/') ? this.config.rpcUrl : `${this.config.rpcUrl}/`);
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
    } catch (e) {
      throw new MoneroRpcError(
        `monerod ${path}: ${(e as Error).name === 'TimeoutError' ? 'timed out' : 'unreachable'}`,
        null,
      );
    }
    if (!res.ok) throw new MoneroRpcError(`monerod ${path}: HTTP ${res.status}`, null);
    return (await res.json()) as T;
  }
}
