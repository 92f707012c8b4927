import { getAddress, isAddress } from 'viem';
import type { AddressCheck } from '../family.js';

/** Mixed case carries an EIP-55 checksum, which must hold; all lower or upper case carries none. Answered EIP-55. */
export function checkEvmAddress(address: string): AddressCheck {
  if (!isAddress(address, { strict: true })) return { ok: false, why: 'its EIP-55 checksum does not hold' };
  return { ok: true, address: getAddress(address) };
}
