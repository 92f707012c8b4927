import { BTC_ADDRESS, DOGE_ADDRESS, LTC_ADDRESS } from '../chains/bitcoin/address-shapes.js';
import { EVM_ADDRESS } from '../chains/evm/address-shapes.js';
import { XMR_ADDRESS } from '../chains/monero/address-shapes.js';
import { BASE58 } from './address-shapes.js';
import type { Asset } from './types.js';

/*
 * Address shapes, one per network: each live family keeps its own (core/chains/<family>/address-shapes.ts), the
 * test-only networks' are here. Solana's plain base58 is the one shape that cannot exclude other base58 families by
 * its form.
 */
/** Base58check of 0x41 + 20 bytes always renders as T + 33 characters. */
const TRON_ADDRESS = `^T${BASE58}{33}$`;
/** Base58 of a 32-byte public key: 32 to 44 characters. */
const SOLANA_ADDRESS = `^${BASE58}{32,44}$`;
/** Ripple's base58 alphabet has the same characters as Bitcoin's in another order; version 0x00 renders as r. */
const XRP_ADDRESS = `^r${BASE58}{24,34}$`;
/** Destination tags are uint32 on the ledger; the route layer bounds the value, the regex the shape. */
const XRP_DESTINATION_TAG = '^[0-9]{1,10}$';

type Native = Omit<Asset, 'smartContract' | 'extraIdExists' | 'extraIdRegex'> &
  Partial<Pick<Asset, 'extraIdExists' | 'extraIdRegex'>>;

function native(a: Native): Asset {
  return { extraIdExists: false, extraIdRegex: null, ...a, smartContract: null };
}

function token(a: Omit<Asset, 'extraIdExists' | 'extraIdRegex'> & { smartContract: string }): Asset {
  return { extraIdExists: false, extraIdRegex: null, ...a };
}

/**
 * The shipped catalog. Lower `priority` lists first. `minUsd` keeps every payment far above the network fee:
 * the effective minimum is also at least 10 x `networkFee` (core/pricing/amounts.ts). Token fees are quoted in
 * the token (their USD value at typical gas prices), since that is what the customer compares them with.
 *
 * @example
 * shippedAssets.find((a) => a.code === 'USDTTRC20')?.smartContract // 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'
 */
export const shippedAssets: readonly Asset[] = [
  native({
    codeId: 1,
    code: 'BTC',
    name: 'Bitcoin',
    network: 'btc',
    family: 'utxo',
    decimals: 8,
    walletRegex: BTC_ADDRESS,
    chainId: null,
    cgId: 'bitcoin',
    priority: 10,
    logoFile: 'btc.svg',
    minUsd: '5',
    // ~141 vB P2WPKH spend at ~3.5 sat/vB.
    networkFee: '0.000005',
  }),
  native({
    codeId: 2,
    code: 'ETH',
    name: 'Ethereum',
    network: 'eth',
    family: 'evm',
    decimals: 18,
    walletRegex: EVM_ADDRESS,
    chainId: 1,
    cgId: 'ethereum',
    priority: 20,
    logoFile: 'eth.svg',
    minUsd: '10',
    // 21,000 gas at ~10 gwei, a busy-hour figure.
    networkFee: '0.0002',
  }),
  token({
    codeId: 3,
    code: 'USDTERC20',
    name: 'Tether USD (ERC-20)',
    network: 'eth',
    family: 'evm',
    decimals: 6,
    walletRegex: EVM_ADDRESS,
    smartContract: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
    chainId: 1,
    cgId: 'tether',
    priority: 30,
    logoFile: 'usdterc20.svg',
    minUsd: '10',
    // ~65,000 gas for transfer() at ~5 gwei and ~3,000 USD/ETH.
    networkFee: '1',
  }),
  token({
    codeId: 4,
    code: 'USDCERC20',
    name: 'USD Coin (ERC-20)',
    network: 'eth',
    family: 'evm',
    decimals: 6,
    walletRegex: EVM_ADDRESS,
    smartContract: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    chainId: 1,
    cgId: 'usd-coin',
    priority: 40,
    logoFile: 'usdcerc20.svg',
    minUsd: '10',
    networkFee: '1',
  }),
  token({
    codeId: 5,
    code: 'USDTTRC20',
    name: 'Tether USD (TRC-20)',
    network: 'trx',
    family: 'tron',
    decimals: 6,
    walletRegex: TRON_ADDRESS,
    smartContract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    chainId: null,
    cgId: 'tether',
    priority: 50,
    logoFile: 'usdttrc20.svg',
    minUsd: '15',
    // ~65,000 energy burnt as TRX when the sender has none staked.
    networkFee: '1.5',
  }),
  native({
    codeId: 6,
    code: 'LTC',
    name: 'Litecoin',
    network: 'ltc',
    family: 'utxo',
    decimals: 8,
    walletRegex: LTC_ADDRESS,
    chainId: null,
    cgId: 'litecoin',
    priority: 60,
    logoFile: 'ltc.svg',
    minUsd: '1',
    networkFee: '0.0001',
  }),
  native({
    codeId: 7,
    code: 'DOGE',
    name: 'Dogecoin',
    network: 'doge',
    family: 'utxo',
    decimals: 8,
    walletRegex: DOGE_ADDRESS,
    chainId: null,
    cgId: 'dogecoin',
    priority: 70,
    logoFile: 'doge.svg',
    minUsd: '1',
    // Dogecoin Core's recommended 0.01 DOGE/kB, rounded up for multi-input spends.
    networkFee: '0.05',
  }),
  native({
    codeId: 8,
    code: 'BNBBSC',
    name: 'BNB (BNB Smart Chain)',
    network: 'bsc',
    family: 'evm',
    decimals: 18,
    walletRegex: EVM_ADDRESS,
    chainId: 56,
    cgId: 'binancecoin',
    priority: 80,
    logoFile: 'bnbbsc.svg',
    minUsd: '1',
    networkFee: '0.00005',
  }),
  token({
    codeId: 9,
    code: 'USDTBSC',
    name: 'Tether USD (BEP-20)',
    network: 'bsc',
    family: 'evm',
    // Binance-Peg USDT uses 18 decimals, unlike Tether's own 6 on other chains.
    decimals: 18,
    walletRegex: EVM_ADDRESS,
    smartContract: '0x55d398326f99059fF775485246999027B3197955',
    chainId: 56,
    cgId: 'tether',
    priority: 90,
    logoFile: 'usdtbsc.svg',
    minUsd: '1',
    networkFee: '0.05',
  }),
  native({
    codeId: 10,
    code: 'POL',
    name: 'POL (Polygon)',
    network: 'matic',
    family: 'evm',
    decimals: 18,
    walletRegex: EVM_ADDRESS,
    chainId: 137,
    cgId: 'polygon-ecosystem-token',
    priority: 100,
    logoFile: 'pol.svg',
    minUsd: '1',
    networkFee: '0.01',
  }),
  token({
    codeId: 11,
    code: 'USDTMATIC',
    name: 'Tether USD (Polygon)',
    network: 'matic',
    family: 'evm',
    decimals: 6,
    walletRegex: EVM_ADDRESS,
    smartContract: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
    chainId: 137,
    cgId: 'tether',
    priority: 110,
    logoFile: 'usdtmatic.svg',
    minUsd: '1',
    networkFee: '0.01',
  }),
  native({
    codeId: 12,
    code: 'TRX',
    name: 'TRON',
    network: 'trx',
    family: 'tron',
    decimals: 6,
    walletRegex: TRON_ADDRESS,
    chainId: null,
    cgId: 'tron',
    priority: 120,
    logoFile: 'trx.svg',
    minUsd: '1',
    // ~267 bandwidth points burnt at 1,000 sun each when the sender's free bandwidth is used up.
    networkFee: '0.3',
  }),
  native({
    codeId: 13,
    code: 'SOL',
    name: 'Solana',
    network: 'sol',
    family: 'solana',
    decimals: 9,
    walletRegex: SOLANA_ADDRESS,
    chainId: null,
    cgId: 'solana',
    priority: 130,
    logoFile: 'sol.svg',
    minUsd: '1',
    // 5,000 lamports base fee plus a small priority fee.
    networkFee: '0.00001',
  }),
  native({
    codeId: 14,
    code: 'XRP',
    name: 'XRP',
    network: 'xrp',
    family: 'xrp',
    decimals: 6,
    walletRegex: XRP_ADDRESS,
    extraIdExists: true,
    extraIdRegex: XRP_DESTINATION_TAG,
    chainId: null,
    cgId: 'ripple',
    priority: 140,
    logoFile: 'xrp.svg',
    minUsd: '1',
    networkFee: '0.00002',
  }),
  native({
    codeId: 15,
    code: 'ETHBASE',
    name: 'Ethereum (Base)',
    network: 'base',
    family: 'evm',
    decimals: 18,
    walletRegex: EVM_ADDRESS,
    chainId: 8453,
    cgId: 'ethereum',
    priority: 150,
    logoFile: 'ethbase.svg',
    minUsd: '1',
    networkFee: '0.000005',
  }),
  token({
    codeId: 16,
    code: 'USDCBASE',
    name: 'USD Coin (Base)',
    network: 'base',
    family: 'evm',
    decimals: 6,
    walletRegex: EVM_ADDRESS,
    smartContract: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    chainId: 8453,
    cgId: 'usd-coin',
    priority: 160,
    logoFile: 'usdcbase.svg',
    minUsd: '1',
    networkFee: '0.02',
  }),
  native({
    codeId: 17,
    code: 'XMR',
    name: 'Monero',
    network: 'xmr',
    family: 'monero',
    decimals: 12,
    walletRegex: XMR_ADDRESS,
    chainId: null,
    cgId: 'monero',
    priority: 170,
    logoFile: 'xmr.svg',
    minUsd: '1',
    // ~0.00003 XMR for a 2-in/2-out transaction at the default fee level (wallet-rpc 0.18 quoted 0.0000342 here).
    networkFee: '0.0001',
  }),
];
