import { HDKey } from '@scure/bip32';
import { bytesToHex } from 'viem';
import { publicKeyToAddress } from 'viem/accounts';
import { MAX_ADDRESS_INDEX } from '../../addresses/types.js';
import { err, invalid, ok, type Result } from '../../errors.js';

/*
 * Live addresses come from the merchant's own extended public key (BIP32): payment N pays to child 0/N of the
 * account key (m/44'/60'/0' for EVM wallets), so the merchant's wallet sees every payment at its usual path and
 * the server never holds anything that can spend.
 */

/** secp256k1 field prime. */
const P = 2n ** 256n - 2n ** 32n - 977n;

function modPow(base: bigint, exp: bigint, mod: bigint): bigint {
  let result = 1n;
  let b = base % mod;
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % mod;
    b = (b * b) % mod;
    e >>= 1n;
  }
  return result;
}

/**
 * Compressed (33 bytes) to uncompressed (65 bytes) secp256k1 point, because an Ethereum address hashes both
 * coordinates while BIP32 keeps only x and y's parity. y = sqrt(x^3 + 7); P = 3 mod 4, so sqrt(a) = a^((P+1)/4).
 */
export function decompressPublicKey(compressed: Uint8Array): Uint8Array {
  const prefix = compressed[0];
  if (compressed.length !== 33 || (prefix !== 2 && prefix !== 3))
    throw new RangeError('expected a 33-byte compressed public key');
  const x = BigInt(bytesToHex(compressed.subarray(1)));
  const rhs = (modPow(x, 3n, P) + 7n) % P;
  let y = modPow(rhs, (P + 1n) / 4n, P);
  if ((y * y) % P !== rhs) throw new RangeError('public key is not on secp256k1');
  if ((y & 1n) !== BigInt(prefix & 1)) y = P - y;
  const out = new Uint8Array(65);
  out[0] = 4;
  out.set(compressed.subarray(1), 1);
  out.set(hexToBytes32(y), 33);
  return out;
}

function hexToBytes32(n: bigint): Uint8Array {
  return Uint8Array.from(Buffer.from(n.toString(16).padStart(64, '0'), 'hex'));
}

/** The EIP-55 address of a BIP32 node's public key. */
export function evmAddressOf(key: HDKey): string {
  if (!key.publicKey) throw new Error('HD key has no public key');
  return publicKeyToAddress(bytesToHex(decompressPublicKey(key.publicKey)));
}

/**
 * Parses a BIP32 extended public key (xpub). A private key (xprv) is refused without echoing it, so that a
 * pasted secret never reaches a log or a terminal scrollback through us.
 *
 * @example
 * parseXpub('xpub6C...') // { ok: true, value: HDKey }
 */
export function parseXpub(text: string): Result<HDKey> {
  const trimmed = text.trim();
  if (/^[xtyzuv]prv/i.test(trimmed)) {
    return err(
      invalid(
        'xpub',
        'This is an extended PRIVATE key (xprv). Never give it to the server; export the extended public key (xpub) instead',
      ),
    );
  }
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(trimmed);
  } catch {
    return err(invalid('xpub', 'Not a valid BIP32 extended public key (expected "xpub..." with a valid checksum)'));
  }
  if (key.privateKey)
    return err(
      invalid('xpub', 'This extended key holds a private key; give the server the extended public key (xpub) only'),
    );
  return ok(key);
}

// Parsing the xpub and deriving the external branch costs one point multiplication each; keep the branch node.
const branches = new Map<string, HDKey>();
const MAX_CACHED = 10_000;

function externalBranch(xpub: string): HDKey {
  let branch = branches.get(xpub);
  if (!branch) {
    const parsed = parseXpub(xpub);
    if (!parsed.ok) throw parsed.error;
    branch = parsed.value.deriveChild(0);
    if (branches.size >= MAX_CACHED) branches.clear();
    branches.set(xpub, branch);
  }
  return branch;
}

/**
 * The address of payment `index`: child 0/index of the account xpub (non-hardened, public derivation only).
 *
 * @example
 * // anvil's default mnemonic, account m/44'/60'/0':
 * evmAddressAt(xpub, 0) // '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
 */
export function evmAddressAt(xpub: string, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index > MAX_ADDRESS_INDEX)
    throw new RangeError(`address index out of range: ${index}`);
  return evmAddressOf(externalBranch(xpub).deriveChild(index));
}
