import type { Address } from 'viem';
import type { AddressAllocator } from '../../../addresses/types.js';
import { invalid } from '../../../errors.js';
import { getPayout } from '../../../forwarders/payouts.js';
import { insertForwarder } from '../../../forwarders/store.js';
import { forwarderAddress, forwarderSalt } from './address.js';

export interface ForwarderAllocatorOptions {
  /** The factory of each EVM network that has one (CHAINS_CONFIG `forwarderFactory`). */
  factoryOf(network: string): Address | null;
  /**
   * Why the network's factory cannot be used now (no code at the address, another chain's CREATE2 rule), or null
   * once the sweeper has checked it on chain. Payments are refused until then rather than paid to an address that
   * nothing could move funds from.
   */
  problemOf(network: string): string | null;
  now(): number;
  /** Every other payment: the merchant's xpub. */
  fallback: AddressAllocator;
}

/**
 * Live EVM payments of a merchant with a payout address, on a network with a forwarder factory, pay to a forwarder:
 * the CREATE2 address of a clone that can only ever send to that payout. Its row is written in the payment's own
 * transaction, so the store can always redeploy and flush it. Everything else falls back to the xpub allocator, so
 * the payout wins where both are set and the network has a factory.
 */
export function createForwarderAllocator(o: ForwarderAllocatorOptions): AddressAllocator {
  return {
    async allocate(trx, merchant, asset, paymentId) {
      const factory = asset.family === 'evm' ? o.factoryOf(asset.network) : null;
      const payout = factory ? await getPayout(trx, merchant.id, 'evm') : null;
      if (!factory || !payout) return o.fallback.allocate(trx, merchant, asset, paymentId);
      const problem = o.problemOf(asset.network);
      if (problem) throw invalid('currency', `Live payments in ${asset.code} are paused: ${problem}`);
      const salt = forwarderSalt(paymentId);
      const address = forwarderAddress(factory, payout, salt);
      await insertForwarder(trx, {
        payment_id: paymentId,
        merchant_id: merchant.id,
        network: asset.network,
        address,
        factory,
        payout,
        salt,
        created_at: o.now(),
      });
      return { address, extraId: null, index: null };
    },
  };
}
