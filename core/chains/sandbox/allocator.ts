import { createHash, randomBytes } from 'node:crypto';
import type { AddressAllocator } from '../../addresses/types.js';
import { sandboxAddress, sandboxDestinationTag } from './addresses.js';

/**
 * Test mode: a fresh random address per payment, shaped like the network's real ones. On XRP, as on the real
 * ledger, the merchant has one address and each payment its own destination tag.
 */
export const sandboxAllocator: AddressAllocator = {
  async allocate(_trx, merchant, asset) {
    if (asset.extraIdExists) {
      const merchantSeed = createHash('sha256').update(`sandbox-account:${merchant.id}:${asset.network}`).digest();
      return {
        address: sandboxAddress(asset, merchantSeed),
        extraId: sandboxDestinationTag(randomBytes(32)),
        index: null,
      };
    }
    return { address: sandboxAddress(asset, randomBytes(32)), extraId: null, index: null };
  },
};
