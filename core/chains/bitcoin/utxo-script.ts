import { createHash } from 'node:crypto';
import { bech32, createBase58check, hex } from '@scure/base';
import { receiveAddressKind, type UtxoChain, type UtxoNet } from './utxo-params.js';

/*
 * Payment addresses and their output scripts (scriptPubKey), both ways. The watcher matches outputs by script and
 * encodes the address itself with the configured chain's parameters, never trusting the node's `addresses` field:
 * that is what lets a payment's `bcrt1q...` be proven on a Litecoin node, where the same script reads `rltc1q...`.
 * Only each chain's receive kind is handled (P2WPKH for BTC and LTC, P2PKH for Dogecoin); every other script
 * (P2SH, P2WSH, P2TR, OP_RETURN, bare multisig) is none of our payment addresses.
 */

const sha256 = (data: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(data).digest());
const base58check = createBase58check(sha256);

/** OP_0 PUSH20: a SegWit v0 key-hash output is 0x0014 + 20 bytes (BIP141). */
const P2WPKH_PREFIX = '0014';
/** OP_DUP OP_HASH160 PUSH20 <20 bytes> OP_EQUALVERIFY OP_CHECKSIG. */
const P2PKH_PREFIX = '76a914';
const P2PKH_SUFFIX = '88ac';

/**
 * The address paying to a 20-byte key hash (HASH160 of a compressed public key) on a chain and network.
 *
 * @example
 * keyHashAddress(hash160, 'btc', 'main') // 'bc1q...'
 * keyHashAddress(hash160, 'doge', 'main') // 'D...'
 */
export function keyHashAddress(keyHash: Uint8Array, chain: UtxoChain, net: UtxoNet): string {
  if (keyHash.length !== 20) throw new RangeError(`a key hash has 20 bytes, got ${keyHash.length}`);
  const kind = receiveAddressKind(chain, net);
  if (kind.type === 'p2wpkh') return bech32.encode(kind.hrp, [0, ...bech32.toWords(keyHash)]);
  const payload = new Uint8Array(21);
  payload[0] = kind.version;
  payload.set(keyHash, 1);
  return base58check.encode(payload);
}

/**
 * The output script of one of our payment addresses, or null when the text is not a receive address of this chain
 * and network (another network's prefix, a bad checksum, P2SH, P2WSH, taproot, mixed case...).
 *
 * @example
 * outputScript('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', 'btc', 'main') // Uint8Array [0x00, 0x14, ...20 bytes]
 */
export function outputScript(address: string, chain: UtxoChain, net: UtxoNet): Uint8Array | null {
  const kind = receiveAddressKind(chain, net);
  try {
    if (kind.type === 'p2wpkh') {
      // bech32 (not bech32m) is right for witness v0; @scure/base rejects mixed case and checks the checksum.
      const { prefix, words } = bech32.decode(address as `${string}1${string}`);
      if (prefix !== kind.hrp || words[0] !== 0) return null;
      const program = bech32.fromWords(words.slice(1));
      if (program.length !== 20) return null;
      return hex.decode(P2WPKH_PREFIX + hex.encode(program));
    }
    const payload = base58check.decode(address);
    if (payload.length !== 21 || payload[0] !== kind.version) return null;
    return hex.decode(P2PKH_PREFIX + hex.encode(payload.subarray(1)) + P2PKH_SUFFIX);
  } catch {
    return null;
  }
}

/**
 * The payment address an output script pays, encoded for this chain and network; null for any script that is not
 * this chain's receive kind. Takes the script as hex, the form the node's JSON carries, so the hot path of a
 * block scan decides on a string prefix before decoding anything.
 *
 * @example
 * addressOfScript('0014c0cebcd6c3d3ca8c75dc5ec62ebe55330ef910e2', 'btc', 'main')
 * // 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'
 */
export function addressOfScript(scriptHex: string, chain: UtxoChain, net: UtxoNet): string | null {
  const kind = receiveAddressKind(chain, net);
  let keyHash: string;
  if (kind.type === 'p2wpkh') {
    if (scriptHex.length !== 44 || !scriptHex.startsWith(P2WPKH_PREFIX)) return null;
    keyHash = scriptHex.slice(4);
  } else {
    if (scriptHex.length !== 50 || !scriptHex.startsWith(P2PKH_PREFIX) || !scriptHex.endsWith(P2PKH_SUFFIX))
      return null;
    keyHash = scriptHex.slice(6, 46);
  }
  let bytes: Uint8Array;
  try {
    bytes = hex.decode(keyHash.toLowerCase());
  } catch {
    return null;
  }
  return keyHashAddress(bytes, chain, net);
}
