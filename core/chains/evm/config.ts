import { readFileSync } from 'node:fs';
import { type Address, getAddress, type Hex, isAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import type { Asset } from '../../catalog/types.js';
import { ChainsConfigError } from '../config-error.js';

/** Where it was defined before every family threw it (core/chains/config-error.ts); tests still import it here. */
export { ChainsConfigError };

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
  /**
   * ForwarderFactory on this chain (`admin evm deploy-factory`): merchants with a payout address get a forwarder per
   * payment (core/forwarders). Optional: without it every EVM payment pays to an address of the merchant's xpub.
   */
  forwarderFactory: z
    .string()
    .refine((a) => isAddress(a, { strict: false }), 'must be a 0x-prefixed 20-byte address')
    .optional(),
  /**
   * A file holding the relayer's private key (0x + 64 hex): a gas-only account that flushes forwarders. The only key
   * the service may hold; it pays gas and has no power over customer funds. Optional: without it forwarders are
   * swept from the dashboard or with `admin evm sweep --calldata`.
   */
  relayerKeyFile: z.string().min(1).optional(),
  /** Forwarders per flushMany transaction. @default 50 */
  sweepBatchSize: z.number().int().min(1).max(200).default(50),
  /** A forwarder waits at most this long for a full batch. @default 3600 */
  sweepMaxWaitSeconds: z
    .number()
    .int()
    .min(0)
    .max(30 * 86_400)
    .default(3600),
  /** No sweep while the node's gas price is above this (gwei, decimal text). Optional: any price. */
  sweepMaxGasPriceGwei: z
    .string()
    .regex(/^\d{1,9}(\.\d{1,9})?$/, 'decimal gwei, e.g. "30" or "0.5"')
    .optional(),
  /** How often the sweeper looks at forwarders and its own transactions. @default 15000 */
  sweepIntervalMs: z.number().int().min(50).max(3_600_000).default(15_000),
  /** Below this native balance (decimal text, e.g. "0.05") the relayer is reported low. @default "0.01" */
  relayerLowBalance: z
    .string()
    .regex(/^\d{1,18}(\.\d{1,18})?$/, 'decimal amount of the native coin, e.g. "0.05"')
    .default('0.01'),
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
  /** Forwarders on this network, or null when it has no factory. */
  forwarders: ForwarderConfig | null;
}

export interface ForwarderConfig {
  factory: Address;
  /** The relayer's key, read from `relayerKeyFile` at start-up; null: no relayer (sweeps from a wallet). */
  relayerKey: Hex | null;
  batchSize: number;
  maxWaitMs: number;
  /** In wei; null: any price. */
  maxGasPriceWei: bigint | null;
  intervalMs: number;
  /** In wei. */
  lowBalanceWei: bigint;
}

/**
 * Chains whose CREATE2 addresses follow another rule (zkSync Era's ZK Stack and its kin hash a different preimage):
 * a forwarder address computed the Ethereum way would receive funds no contract can ever move there.
 */
export const DIFFERENT_CREATE2_CHAIN_IDS: ReadonlyMap<number, string> = new Map([
  [324, 'zkSync Era'],
  [300, 'zkSync Era Sepolia'],
  [2741, 'Abstract'],
  [11124, 'Abstract testnet'],
  [232, 'Lens'],
  [37111, 'Lens testnet'],
  [50104, 'Sophon'],
  [531050104, 'Sophon testnet'],
  [388, 'Cronos zkEVM'],
  [240, 'Cronos zkEVM testnet'],
  [9075, 'Gateway'],
]);

/**
 * Checks the EVM networks of the chains file against the catalog (core/chains/chains-config.ts reads the file and
 * hands each family its own keys; the EVM family's descriptor passes its ones here). Each mistake (unknown network, a token of another network, a foreign
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
      forwarders: forwarderConfig(network, n),
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

/** Decimal text of a coin with 18 (wei) or 9 (gwei) decimals, to base units. */
function decimalUnits(text: string, decimals: number): bigint {
  const [whole = '0', frac = ''] = text.split('.');
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(frac.padEnd(decimals, '0') || '0');
}

function forwarderConfig(network: string, n: EvmNetworkInput): ForwarderConfig | null {
  const at = `networks.${network}`;
  if (!n.forwarderFactory) {
    if (n.relayerKeyFile) throw new ChainsConfigError(`${at}.relayerKeyFile: needs forwarderFactory`);
    return null;
  }
  const other = DIFFERENT_CREATE2_CHAIN_IDS.get(n.chainId);
  if (other)
    throw new ChainsConfigError(
      `${at}.forwarderFactory: chain ${n.chainId} (${other}) computes CREATE2 addresses differently; forwarders are not supported there`,
    );
  return {
    factory: getAddress(n.forwarderFactory),
    relayerKey: n.relayerKeyFile ? readRelayerKey(`${at}.relayerKeyFile`, n.relayerKeyFile) : null,
    batchSize: n.sweepBatchSize,
    maxWaitMs: n.sweepMaxWaitSeconds * 1000,
    maxGasPriceWei: n.sweepMaxGasPriceGwei ? decimalUnits(n.sweepMaxGasPriceGwei, 9) : null,
    intervalMs: n.sweepIntervalMs,
    lowBalanceWei: decimalUnits(n.relayerLowBalance, 18),
  };
}

/** Reads the relayer's key; a mistake names the file, never its contents. */
function readRelayerKey(at: string, path: string): Hex {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (e) {
    throw new ChainsConfigError(`${at}: cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  const key = (text.startsWith('0x') ? text : `0x${text}`) as Hex;
  if (!/^0x[0-9a-fA-F]{64}$/.test(key))
    throw new ChainsConfigError(`${at}: ${path} does not hold a 32-byte hex private key`);
  try {
    privateKeyToAccount(key);
  } catch {
    throw new ChainsConfigError(`${at}: ${path} does not hold a valid private key`);
  }
  return key;
}
