import type { AddressCheck } from '../family.js';
import { decodeAddress } from './monero.js';

/** A standard address or subaddress whose checksum holds; an integrated address (with a payment id) is refused. */
export function checkMoneroAddress(address: string): AddressCheck {
  if (!decodeAddress(address))
    return { ok: false, why: 'its checksum does not hold (integrated addresses are not taken)' };
  return { ok: true, address };
}
