import { createHash } from 'node:crypto';
import { bech32, bech32m, createBase58check } from '@scure/base';
import { getAddress, isAddress } from 'viem';
import { isValidAddress } from '../catalog/catalog.js';
import type { Asset } from '../catalog/types.js';
import { decodeAddress } from '../chains/monero/monero.js';
import { err, invalid, ok, type Result } from '../errors.js';

const sha256 = (data: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(data).digest());
const base58check = createBase58check(sha256);

/** A Bitcoin-family address whose checksum holds: bech32 (witness v0), bech32m (v1+) or base58check. */
function utxoChecksumHolds(address: string): boolean {
  const lower = address.toLowerCase();
  const sep = lower.lastIndexOf('1');
  // Base58 never contains 0, O, I or l, so a text that decodes as bech32 is one; the shape regex chose the family.
  if (sep > 0 && /^[a-z]+1[02-9ac-hj-np-z]+$/.test(lower)) {
    for (const codec of [bech32, bech32m]) {
      try {
        const { words } = codec.decode(lower as `${string}1${string}`, 90);
        const version = words[0];
        if (version === undefined) return false;
        // BIP350: version 0 is bech32, every later version bech32m.
        if ((version === 0) === (codec === bech32)) return true;
      } catch {
        // the other encoding may hold
      }
    }
    return false;
  }
  try {
    return base58check.decode(address).length === 21;
  } catch {
    return false;
  }
}

/**
 * The customer's refund address for `asset`, checked for its network and put in the form the watchers match
 * (EIP-55 for EVM, lower case for bech32): another network's address, a bad checksum or an integrated Monero address
 * is a 422 on `address`.
 *
 * @example
 * refundDestination(eth, '0xd8da6bf26964af9d7eed9e03e53415d37aa96045') // ok('0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045')
 */
export function refundDestination(asset: Asset, text: string): Result<string> {
  const address = text.trim();
  const refuse = (why: string) => err(invalid('address', `Not a ${asset.network} address for ${asset.code}: ${why}`));
  if (!isValidAddress(asset, address)) return refuse('its form is not one of this network');
  switch (asset.family) {
    case 'evm':
      // Mixed case carries an EIP-55 checksum, which must hold; all lower or upper case carries none.
      if (!isAddress(address, { strict: true })) return refuse('its EIP-55 checksum does not hold');
      return ok(getAddress(address));
    case 'utxo':
      if (!utxoChecksumHolds(address)) return refuse('its checksum does not hold');
      return ok(/^[A-Za-z]+1/.test(address) && address === address.toUpperCase() ? address.toLowerCase() : address);
    case 'monero':
      if (!decodeAddress(address)) return refuse('its checksum does not hold (integrated addresses are not taken)');
      return ok(address);
    default:
      return ok(address);
  }
}
