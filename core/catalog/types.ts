/**
 * A payable asset: a coin or token on one network. The catalog is static configuration shipped with the
 * service (core/catalog/assets.ts); live availability per network is decided by the chain configuration.
 */
export type ChainFamily = 'utxo' | 'evm' | 'tron' | 'solana' | 'xrp' | 'monero';

export interface Asset {
  /** Stable numeric id (API §2.1 `code_id`). */
  codeId: number;
  /** Upper-case ticker, unique: BTC, USDTERC20, ... */
  code: string;
  name: string;
  /** Network code as shown to customers and merchants: btc, eth, bsc, matic, base, trx, sol, xrp, ltc, doge. */
  network: string;
  family: ChainFamily;
  /** Decimals of the base unit on the network (API `network_precision`). */
  decimals: number;
  walletRegex: string;
  extraIdExists: boolean;
  extraIdRegex: string | null;
  /** Token contract (ERC-20, BEP-20, TRC-20, SPL mint); null for native coins. */
  smartContract: string | null;
  /** EVM chain id, used in EIP-681 URIs. */
  chainId: number | null;
  cgId: string;
  priority: number;
  /** File name under public/icons/. */
  logoFile: string;
  /** Default minimum payment in USD (decimal text); configurable per asset. */
  minUsd: string;
  /** Typical network fee the sender pays, in asset units (decimal text). Minimums stay far above it. */
  networkFee: string;
}
