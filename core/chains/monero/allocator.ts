import type { GapGuard } from '../../addresses/gap.js';
import type { AddressAllocator } from '../../addresses/types.js';
import { invalid } from '../../errors.js';
import { takeSubaddress } from './monero-keys.js';

/**
 * Live Monero payments: subaddress N of account 0, derived here from the merchant's stored keys (no wallet is asked,
 * nothing to forget). `gap` checks the run of unpaid ones against the wallet's lookahead (MONERO_SUBADDRESS_LOOKAHEAD).
 */
export function createMoneroAllocator(o: { gap?: GapGuard }): AddressAllocator {
  return {
    async allocate(trx, merchant, asset) {
      const taken = await takeSubaddress(trx, merchant.id);
      if (!taken)
        throw invalid(
          'currency',
          "Live Monero payments need the merchant's address and view key (admin CLI: viewkey set)",
        );
      await o.gap?.check(trx, merchant.id, asset.network, taken.index);
      return { address: taken.address, extraId: null, index: taken.index };
    },
  };
}
