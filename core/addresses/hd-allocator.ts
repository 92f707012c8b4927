import { invalid } from '../errors.js';
import { evmAddressAt, MAX_ADDRESS_INDEX } from './hd.js';
import type { AddressAllocator } from './types.js';
import { getXpub } from './xpubs.js';

/**
 * Live mode: payment N of a merchant pays to child 0/N of the merchant's xpub. N comes from
 * `merchants.next_address_index`, incremented inside the payment's own transaction, so two concurrent payments
 * never share an index and an index whose payment rolled back is skipped, never handed out twice.
 */
export const hdAllocator: AddressAllocator = {
  async allocate(trx, merchant, asset) {
    if (asset.family !== 'evm') throw invalid('currency', `Live payments in ${asset.code} are not supported yet`);
    const xpub = await getXpub(trx, merchant.id, asset.family);
    if (!xpub)
      throw invalid(
        'currency',
        'Live payments need an extended public key registered for this network (admin CLI: xpub set)',
      );
    const taken = await trx
      .updateTable('merchants')
      .set((eb) => ({ next_address_index: eb('next_address_index', '+', 1) }))
      .where('id', '=', merchant.id)
      .returning('next_address_index')
      .executeTakeFirstOrThrow();
    const index = Number(taken.next_address_index) - 1;
    if (index > MAX_ADDRESS_INDEX)
      throw invalid('currency', 'This merchant has used every address of its extended public key');
    return { address: evmAddressAt(xpub, index), extraId: null, index };
  },
};
