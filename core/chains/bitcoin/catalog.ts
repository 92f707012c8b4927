import { BASE58 } from '../../catalog/address-shapes.js';
import type { Asset } from '../../catalog/types.js';
import { segwit } from './address-shapes.js';
import type { BitcoinNetworkConfig } from './config.js';
import { receiveAddressKind } from './utxo-params.js';

/**
 * The catalog as configured Bitcoin-family nodes see it. The shipped `walletRegex` shapes are mainnet's; a node on
 * testnet or regtest pays to `tb1q`/`bcrt1q`/`rltc1q` and `m`/`n` addresses, so its asset's shape also accepts its
 * network's forms (test mode's sandbox addresses stay mainnet-shaped, hence both).
 *
 * @example
 * applyUtxoConfig(shippedAssets, [{ network: 'ltc', chain: 'regtest', ... }]).find((a) => a.code === 'LTC')?.walletRegex
 * // accepts 'ltc1q...' and 'rltc1q...'
 */
export function applyUtxoConfig(assets: readonly Asset[], networks: readonly BitcoinNetworkConfig[]): Asset[] {
  return assets.map((a) => {
    const n = networks.find((x) => x.network === a.network);
    if (!n || n.chain === 'main' || a.family !== 'utxo') return a;
    const kind = receiveAddressKind(n.network, n.chain);
    // Test networks share base58 versions across the family: P2PKH 111/113 (m, n), P2SH 196/58 (2, Q).
    const legacy = `[mn]${BASE58}{25,33}|[2Q]${BASE58}{25,34}`;
    const own = kind.type === 'p2wpkh' ? `${segwit(kind.hrp)}|${legacy}` : legacy;
    const mainnet = a.walletRegex.replace(/^\^/, '').replace(/\$$/, '');
    return { ...a, walletRegex: `^(?:${mainnet}|${own})$` };
  });
}
