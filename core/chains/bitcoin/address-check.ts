import { createHash } from 'node:crypto';
import { bech32, bech32m, createBase58check } from '@scure/base';
import type { AddressCheck } from '../family.js';

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

/** The checksum must hold; an all upper case bech32 address is answered in lower case, the form watchers match. */
export function checkUtxoAddress(address: string): AddressCheck {
  if (!utxoChecksumHolds(address)) return { ok: false, why: 'its checksum does not hold' };
  const upperBech32 = /^[A-Za-z]+1/.test(address) && address === address.toUpperCase();
  return { ok: true, address: upperBech32 ? address.toLowerCase() : address };
}
