import type { Kysely } from 'kysely';
import type { Asset } from '../catalog/types.js';
import type { Merchant } from '../merchants/merchants.js';
import type { Database } from '../store/schema.js';

/** BIP32 children at or above 2^31 are hardened and cannot be derived from a public key. */
export const MAX_ADDRESS_INDEX = 0x7fff_ffff;

export interface AllocatedAddress {
  address: string;
  /** Destination tag / memo for networks that share one address per merchant (XRP). */
  extraId: string | null;
  /** Derivation index for addresses derived from the merchant's extended public key. */
  index: number | null;
}

/**
 * Gives each payment its own place to be paid. Runs inside the payment's creation transaction, so an index taken
 * by a payment that is rolled back is simply skipped, never reused by two payments.
 */
export interface AddressAllocator {
  /** `paymentId`: the payment being created (a forwarder's salt is derived from it). */
  allocate(trx: Kysely<Database>, merchant: Merchant, asset: Asset, paymentId: string): Promise<AllocatedAddress>;
}
