import { getAddress, isAddress } from 'viem';
import { z } from 'zod';
import type { Asset } from '../../catalog/types.js';

/**
 * Live EVM networks are configuration: a JSON file named by CHAINS_CONFIG. Ethereum, BNB Smart Chain, Polygon and
 * Base differ only in these values, so one chain source serves them all.
 *
 * @example
 * {"networks": {"eth": {"rpcUrl": "https://eth.example/rpc", "chainId": 1, "confirmations": 12, "pollIntervalMs": 4000,
 *   "tokens": {"USDTERC20": "0xdAC17F958D2ee523a2206206994597C13D831ec7"}}}}
 */
export const evmNetworkSchema = z.strictObject({
  /** JSON-RPC over HTTP(S). */
  rpcUrl: z.url({ protocol: /^https?$/ }),
  /** Checked against the node's eth_chainId before any block is trusted; also goes into EIP-681 URIs. */
  chainId: z.number().int().positive(),
  /** Blocks on top of and including the deposit's block before it counts. */
  confirmations: z.number().int().min(1).max(1000),
  /** @default 2000 */
  pollIntervalMs: z.number().int().min(50).max(600_000).default(2000),
  /** Per RPC request. @default 10000 */
  timeoutMs: z.number().int().min(100).max(120_000).default(10_000),
  /**
   * Public block explorer, http(s) base without a trailing slash: a transaction is `${explorerUrl}/tx/${txid}` (the
   * dashboard's deposit links, wallet pay's transaction links). Optional: without it no link is shown.
   */
  explorerUrl: z
    .url({ protocol: /^https?$/ })
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
  /**
   * Public JSON-RPC URL a customer's wallet may add (`wallet_addEthereumChain`, when the wallet does not know the
   * chain). Never `rpcUrl`, which may carry an API key and must not reach a browser. Optional: without it, a wallet
   * that lacks the chain gets a message instead.
   */
  walletRpcUrl: z.url({ protocol: /^https?$/ }).optional(),
  /** Catalog token code -> contract on this chain. Tokens left out keep the catalog's contract (mainnet). */
  tokens: z
    .record(
      z.string(),
      z.string().refine((a) => isAddress(a, { strict: false }), 'must be a 0x-prefixed 20-byte address'),
    )
    .default({}),
});

export const chainsFileSchema = z.strictObject({
  networks: z.record(z.string(), evmNetworkSchema),
});

export type EvmNetworkInput = z.infer<typeof evmNetworkSchema>;

/** One configured network, checked against the catalog. */
export interface EvmNetworkConfig {
  /** Catalog network code: eth, bsc, matic, base. */
  network: string;
  rpcUrl: string;
  chainId: number;
  confirmations: number;
  pollIntervalMs: number;
  timeoutMs: number;
  /** Public block explorer base (`${explorerUrl}/tx/${txid}`), or null when none is configured. */
  explorerUrl: string | null;
  /** Public RPC URL offered to wallets that lack the chain, or null. */
  walletRpcUrl: string | null;
  /** Native coin's catalog code. */
  nativeAsset: string;
  /** Every catalog token of the network with the contract watched for it (EIP-55). */
  tokens: { asset: string; contract: string }[];
}

export class ChainsConfigError extends Error {
  override name = 'ChainsConfigError';
}

/**
 * Checks the EVM networks of the chains file against the catalog (core/chains/chains-config.ts reads the file and
 * hands the Bitcoin-family keys elsewhere). Each mistake (unknown network, a token of another network, a foreign
 * chain id without its own token contracts) is one line naming the place, so start-up stops clearly.
 */
export function parseChainsConfig(json: unknown, assets: readonly Asset[]): EvmNetworkConfig[] {
  const parsed = chainsFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ChainsConfigError(`${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  const out: EvmNetworkConfig[] = [];
  for (const [network, n] of Object.entries(parsed.data.networks)) {
    const ofNetwork = assets.filter((a) => a.network === network);
    const native = ofNetwork.find((a) => a.smartContract === null);
    if (native?.family !== 'evm') {
      const evm = [...new Set(assets.filter((a) => a.family === 'evm').map((a) => a.network))].join(', ');
      throw new ChainsConfigError(`networks.${network}: not an EVM network of the catalog (one of ${evm})`);
    }
    const catalogTokens = ofNetwork.filter((a) => a.smartContract !== null);
    const given = new Map(Object.entries(n.tokens).map(([code, address]) => [code.toUpperCase(), getAddress(address)]));
    for (const code of given.keys()) {
      if (!catalogTokens.some((a) => a.code === code)) {
        throw new ChainsConfigError(
          `networks.${network}.tokens.${code}: not a token of network ${network} (${catalogTokens.map((a) => a.code).join(', ') || 'none'})`,
        );
      }
    }
    const tokens = catalogTokens.map((a) => {
      const contract = given.get(a.code);
      // A chain other than the catalog's (a testnet, a local node) has none of the mainnet contracts.
      if (!contract && n.chainId !== native.chainId) {
        throw new ChainsConfigError(
          `networks.${network}.tokens.${a.code}: required because chainId ${n.chainId} is not the catalog's ${native.chainId}`,
        );
      }
      return { asset: a.code, contract: contract ?? getAddress(a.smartContract as string) };
    });
    if (new Set(tokens.map((t) => t.contract)).size !== tokens.length)
      throw new ChainsConfigError(`networks.${network}.tokens: two tokens share one contract`);
    out.push({
      network,
      rpcUrl: n.rpcUrl,
      chainId: n.chainId,
      confirmations: n.confirmations,
      pollIntervalMs: n.pollIntervalMs,
      timeoutMs: n.timeoutMs,
      explorerUrl: n.explorerUrl ?? null,
      walletRpcUrl: n.walletRpcUrl ?? null,
      nativeAsset: native.code,
      tokens,
    });
  }
  return out;
}

/**
 * The catalog as the configured networks see it: their chain ids and token contracts, so `smart_contract`,
 * EIP-681 URIs and the watcher all name the contract that is actually watched.
 */
export function applyChainsConfig(assets: readonly Asset[], networks: readonly EvmNetworkConfig[]): Asset[] {
  return assets.map((a) => {
    const n = networks.find((x) => x.network === a.network);
    if (!n) return a;
    const token = n.tokens.find((t) => t.asset === a.code);
    return { ...a, chainId: n.chainId, smartContract: token ? token.contract : a.smartContract };
  });
}
