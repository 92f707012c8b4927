import { createHash } from 'node:crypto';
import { base58, base58xrp, createBase58check } from '@scure/base';
import type { Asset } from '../../catalog/types.js';
import { families } from '../families.js';

/*
 * Test-mode ("sandbox chain") addresses. They are real encodings with real checksums, so the widget, QR codes,
 * wallet-regex checks and merchants' own validators treat them exactly like live ones. Nobody holds a key for
 * them: the bytes come from a random seed, not a public key, so nothing must ever be sent to one on a real chain.
 */

const sha256 = (data: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(data).digest());
const base58check = createBase58check(sha256);

/** Version bytes of the base58check payloads (TRON 0x41, XRP account 0x00). */
const TRON = 0x41;
const XRP_ACCOUNT = 0x00;

function versioned(version: number, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(body.length + 1);
  out[0] = version;
  out.set(body, 1);
  return out;
}

/** XRP's base58check: the same double-SHA-256 checksum as Bitcoin's, in Ripple's alphabet. */
function xrpBase58check(payload: Uint8Array): string {
  const check = sha256(sha256(payload)).subarray(0, 4);
  const out = new Uint8Array(payload.length + 4);
  out.set(payload);
  out.set(check, payload.length);
  return base58xrp.encode(out);
}

function checkSeed(seed: Uint8Array): void {
  if (seed.length !== 32) throw new RangeError(`sandbox seed must be 32 bytes, got ${seed.length}`);
}

/**
 * A sandbox address for `asset`, derived from 32 random bytes: the same seed always gives the same address.
 * It matches the asset's `walletRegex` and carries the network's real checksum.
 *
 * @example
 * sandboxAddress(catalog.get('BTC')!, randomBytes(32)) // 'bc1q...' (42 characters)
 */
export function sandboxAddress(asset: Asset, seed: Uint8Array): string {
  checkSeed(seed);
  const body20 = seed.subarray(0, 20);
  switch (asset.family) {
    case 'tron':
      return base58check.encode(versioned(TRON, body20));
    case 'solana':
      return base58.encode(seed);
    case 'xrp':
      return xrpBase58check(versioned(XRP_ACCOUNT, body20));
  }
  // The networks with a family of their own (EVM, Bitcoin-family, Monero) are shaped by it; the test-only ones above.
  const family = families.find((f) => f.assetFamilies.includes(asset.family));
  if (family?.sandboxAddress) return family.sandboxAddress(asset, seed);
  throw new RangeError(`no sandbox address format for network ${asset.network}`);
}

/**
 * A sandbox XRP destination tag: a uint32 in [1, 2^32 - 1] as decimal text. Zero is avoided because many
 * wallets treat tag 0 as "no tag". Drawn from the seed's last 4 bytes, which the address does not use.
 *
 * @example
 * sandboxDestinationTag(randomBytes(32)) // '3141592653'
 */
export function sandboxDestinationTag(seed: Uint8Array): string {
  checkSeed(seed);
  const value = new DataView(seed.buffer, seed.byteOffset, seed.byteLength).getUint32(28);
  return String((value % 0xffff_ffff) + 1);
}
