import type { KeyNet } from '../chains/families.js';
import { invalid } from '../errors.js';
import type { GapGuard } from './gap.js';
import type { AddressAllocator } from './types.js';
import { MAX_ADDRESS_INDEX } from './types.js';
import { isPerNetwork, keyAddressAt, keyChainOf, takeAddressIndex } from './xpubs.js';

export interface HdAllocatorOptions {
  /** The configured node's network of a Bitcoin-family chain (main, test, regtest); null when not configured. */
  netOf(network: string): KeyNet | null;
  /** Bitcoin-family gap-limit check (core/addresses/gap.ts); none: no check. */
  gap?: GapGuard;
}

/**
 * Live mode: payment N of a merchant on a chain pays to child 0/N of the merchant's key for that chain (one key for
 * every EVM network, one per Bitcoin-family chain). N comes from the key's own counter, taken inside the payment's
 * own transaction (core/addresses/xpubs.ts), so each chain's payments sit on contiguous indexes of its key.
 */
export function createHdAllocator(o: HdAllocatorOptions): AddressAllocator {
  return {
    async allocate(trx, merchant, asset) {
      const chain = keyChainOf(asset);
      if (!chain) throw invalid('currency', `Live payments in ${asset.code} are not supported yet`);
      const net = isPerNetwork(chain) ? o.netOf(asset.network) : 'main';
      if (net === null) throw invalid('currency', `Live payments in ${asset.code} need its node in CHAINS_CONFIG`);
      const taken = await takeAddressIndex(trx, merchant.id, chain);
      if (!taken)
        throw invalid(
          'currency',
          `Live payments need an extended public key registered for this network (admin CLI: xpub set --chain ${chain})`,
        );
      if (taken.index > MAX_ADDRESS_INDEX)
        throw invalid('currency', 'This merchant has used every address of its extended public key');
      if (isPerNetwork(chain)) await o.gap?.check(trx, merchant.id, asset.network, taken.index);
      let address: string;
      try {
        address = keyAddressAt(chain, taken.xpub, net, taken.index);
      } catch {
        // A key registered while the node was on another network (a tpub for regtest, now mainnet).
        throw invalid(
          'currency',
          `The registered ${chain} key does not fit the configured node's network; set it again`,
        );
      }
      return { address, extraId: null, index: taken.index };
    },
  };
}
