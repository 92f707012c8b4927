import { GapGuard } from '../../addresses/gap.js';
import { createHdAllocator } from '../../addresses/hd-allocator.js';
import type { ChainFamilyDescriptor } from '../family.js';
import { chainKey } from '../types.js';
import { utxoAccountKeys } from './account-keys.js';
import { checkUtxoAddress } from './address-check.js';
import { BitcoinChain } from './bitcoin-chain.js';
import { applyUtxoConfig } from './catalog.js';
import { type BitcoinNetworkConfig, isUtxoNetwork, readUtxoNetworks } from './config.js';
import { refundPsbt } from './refund-psbt.js';
import type { UtxoNet } from './utxo-params.js';
import { keyHashAddress } from './utxo-script.js';

/** The network of each configured node (main, test, regtest), which keys and addresses are read for; null: none. */
export function utxoNetOf(networks: readonly BitcoinNetworkConfig[]): (network: string) => UtxoNet | null {
  return (network) => networks.find((n) => n.network === network)?.chain ?? null;
}

/**
 * Bitcoin-family chains (btc, ltc, doge): a merchant's own Bitcoin Core-compatible node each; payment N pays to
 * child 0/N of the merchant's account key for that chain, past the gap limit only slowly.
 */
export const bitcoinFamily: ChainFamilyDescriptor & Required<Pick<ChainFamilyDescriptor, 'refundPsbt'>> = {
  name: 'bitcoin',
  assetFamilies: ['utxo'],
  configure: (assets, networks) => applyUtxoConfig(assets, networks.utxo),
  readConfig: (entries) => ({ utxo: readUtxoNetworks(entries) }),
  isLive: (networks) => networks.utxo.length > 0,
  checkAddress: checkUtxoAddress,
  // A mainnet receive address of 20 seed bytes as key hash: P2WPKH for BTC and LTC, P2PKH for Dogecoin (no segwit).
  sandboxAddress(asset, seed) {
    if (!isUtxoNetwork(asset.network)) throw new RangeError(`no sandbox address format for network ${asset.network}`);
    return keyHashAddress(seed.subarray(0, 20), asset.network, 'main');
  },
  accountKeys: utxoAccountKeys,
  refundPsbt,
  build({ clock, logger, chains, networks, gap }) {
    return {
      sources: networks.utxo.map(
        (n) => new BitcoinChain(n, { checkpointHeight: () => chains.headOf(chainKey('live', n.network)) }),
      ),
      liveAllocator: createHdAllocator({
        netOf: utxoNetOf(networks.utxo),
        gap: new GapGuard({ ...gap, logger, now: () => clock.now() }),
      }),
    };
  },
};
