import { z } from 'zod';
import { ChainsConfigError, entryError } from '../config-error.js';
import type { BitcoinRpcAuth } from './rpc.js';
import { type UtxoChain, type UtxoNet, utxoChains, utxoNets } from './utxo-params.js';

/**
 * Confirmations before a deposit counts, when the file does not say: about 20 minutes on each chain (BTC 10-minute
 * blocks, LTC 2.5 minutes, DOGE 1 minute), the common practice of payment processors for merchant-sized amounts.
 */
export const defaultConfirmations: Record<UtxoChain, number> = { btc: 2, ltc: 6, doge: 20 };

/** Catalog code of each chain's coin (core/catalog/assets.ts): 8 decimals, family utxo. */
export const utxoNativeAsset: Record<UtxoChain, string> = { btc: 'BTC', ltc: 'LTC', doge: 'DOGE' };

/**
 * One Bitcoin-family network in CHAINS_CONFIG: a Bitcoin Core-compatible node (Bitcoin Core, Litecoin Core,
 * Dogecoin Core) of the merchant's own. Keyed by the catalog network (`btc`, `ltc`, `doge`) beside the EVM networks;
 * the key picks this schema, so the confirmations default can differ per chain.
 *
 * @example
 * {"networks": {"ltc": {"rpcUrl": "http://127.0.0.1:9332", "cookieFile": "/var/lib/litecoind/.cookie"},
 *   "btc": {"rpcUrl": "http://10.0.0.5:8332", "rpcUser": "shop", "rpcPassword": "...", "confirmations": 3}}}
 */
export function utxoNetworkSchema(network: UtxoChain) {
  return z
    .strictObject({
      /** JSON-RPC over HTTP(S), without credentials in it. */
      rpcUrl: z.url({ protocol: /^https?$/ }).refine((u) => {
        const url = new URL(u);
        return url.username === '' && url.password === '';
      }, 'put credentials in rpcUser/rpcPassword or cookieFile, not in the URL'),
      rpcUser: z.string().min(1).optional(),
      rpcPassword: z.string().min(1).optional(),
      /** The node's `.cookie` (`__cookie__:password`), read again whenever the node restarts and the old one fails. */
      cookieFile: z.string().min(1).optional(),
      /** Checked against the node's `getblockchaininfo.chain`; picks address prefixes and key versions. @default 'main' */
      chain: z.enum(utxoNets).default('main'),
      /** Blocks on top of and including the deposit's block before it counts. @default btc 2, ltc 6, doge 20 */
      confirmations: z.number().int().min(1).max(1000).default(defaultConfirmations[network]),
      /** @default 2000 */
      pollIntervalMs: z.number().int().min(50).max(600_000).default(2000),
      /** Per RPC request. @default 10000 */
      timeoutMs: z.number().int().min(100).max(120_000).default(10_000),
      /** A public block explorer for links shown to people; never the node. */
      explorerUrl: z.url({ protocol: /^https?$/ }).optional(),
    })
    .superRefine((n, ctx) => {
      const password = n.rpcUser !== undefined || n.rpcPassword !== undefined;
      if (password && (n.rpcUser === undefined || n.rpcPassword === undefined))
        ctx.addIssue({
          code: 'custom',
          path: [n.rpcUser === undefined ? 'rpcUser' : 'rpcPassword'],
          message: 'rpcUser and rpcPassword go together',
        });
      if (password === (n.cookieFile !== undefined))
        ctx.addIssue({
          code: 'custom',
          path: ['cookieFile'],
          message: 'give either rpcUser and rpcPassword, or cookieFile',
        });
    });
}

export type UtxoNetworkInput = z.infer<ReturnType<typeof utxoNetworkSchema>>;

/** The schema of each Bitcoin-family key of CHAINS_CONFIG's `networks`. */
export const utxoNetworkSchemas: Record<UtxoChain, ReturnType<typeof utxoNetworkSchema>> = {
  btc: utxoNetworkSchema('btc'),
  ltc: utxoNetworkSchema('ltc'),
  doge: utxoNetworkSchema('doge'),
};

/** @example isUtxoNetwork('ltc') // true; isUtxoNetwork('eth') // false */
export function isUtxoNetwork(key: string): key is UtxoChain {
  return (utxoChains as readonly string[]).includes(key);
}

/** One configured Bitcoin-family network, ready for `BitcoinChain`. */
export interface BitcoinNetworkConfig {
  network: UtxoChain;
  chain: UtxoNet;
  rpcUrl: string;
  auth: BitcoinRpcAuth;
  confirmations: number;
  pollIntervalMs: number;
  timeoutMs: number;
  /** Catalog code of the coin: BTC, LTC, DOGE. */
  nativeAsset: string;
  explorerUrl: string | null;
}

/**
 * The parsed entry as the chain source takes it.
 *
 * @example
 * toBitcoinNetworkConfig('ltc', utxoNetworkSchemas.ltc.parse({ rpcUrl: 'http://127.0.0.1:9332', cookieFile: '/x/.cookie' }))
 * // { network: 'ltc', chain: 'main', confirmations: 6, auth: { cookieFile: '/x/.cookie' }, nativeAsset: 'LTC', ... }
 */
export function toBitcoinNetworkConfig(network: UtxoChain, n: UtxoNetworkInput): BitcoinNetworkConfig {
  const auth: BitcoinRpcAuth =
    n.cookieFile !== undefined
      ? { cookieFile: n.cookieFile }
      : { user: n.rpcUser ?? '', password: n.rpcPassword ?? '' };
  return {
    network,
    chain: n.chain,
    rpcUrl: n.rpcUrl,
    auth,
    confirmations: n.confirmations,
    pollIntervalMs: n.pollIntervalMs,
    timeoutMs: n.timeoutMs,
    nativeAsset: utxoNativeAsset[network],
    explorerUrl: n.explorerUrl ?? null,
  };
}

/**
 * The Bitcoin-family entries of CHAINS_CONFIG's `networks`, in the file's order; each key picks its schema.
 *
 * @example
 * readUtxoNetworks({ ltc: { rpcUrl: 'http://127.0.0.1:9332', cookieFile: '/x/.cookie' } })
 * // [{ network: 'ltc', chain: 'main', confirmations: 6, ... }]
 */
export function readUtxoNetworks(entries: Readonly<Record<string, unknown>>): BitcoinNetworkConfig[] {
  return Object.entries(entries).map(([key, entry]) => {
    if (!isUtxoNetwork(key)) throw new ChainsConfigError(`networks.${key}: not a Bitcoin-family network`);
    const parsed = utxoNetworkSchemas[key].safeParse(entry);
    if (!parsed.success) throw entryError(key, parsed.error);
    return toBitcoinNetworkConfig(key, parsed.data);
  });
}
