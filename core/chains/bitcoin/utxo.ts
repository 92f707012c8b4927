import { createHash } from 'node:crypto';
import { createBase58check } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { MAX_ADDRESS_INDEX } from '../../addresses/types.js';
import { err, invalid, ok, type Result } from '../../errors.js';
import {
  acceptedPrefixes,
  accountPath,
  canonicalPrefix,
  type ExtendedKeyPrefix,
  extendedKeyVersions,
  prefixOfVersion,
  type UtxoChain,
  type UtxoNet,
} from './utxo-params.js';
import { keyHashAddress } from './utxo-script.js';

/*
 * Live Bitcoin-family addresses: payment N pays to receive child 0/N of the merchant's account key (BIP84
 * m/84'/0'/0' for BTC, m/84'/2'/0' for LTC, BIP44 m/44'/3'/0' for Dogecoin), so the merchant's wallet sees every
 * payment at its usual path and the server holds nothing that can spend.
 */

const sha256 = (data: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(data).digest());
const base58check = createBase58check(sha256);

/** The account level of m / purpose' / coin' / account'. */
const ACCOUNT_DEPTH = 3;

const NAMES: Record<UtxoChain, string> = { btc: 'Bitcoin', ltc: 'Litecoin', doge: 'Dogecoin' };
const NET_NAMES: Record<UtxoNet, string> = { main: 'mainnet', test: 'testnet', regtest: 'regtest' };

/** Byte 45 of a serialised extended key starts the key data: 0x00 then 32 bytes for a private key, 02/03 for public. */
const KEY_DATA_OFFSET = 45;

export interface UtxoAccountKey {
  /** The key as stored: re-serialised as xpub (mainnet) or tpub (test networks) whatever form was pasted. */
  xpub: string;
  /** The form the merchant pasted (zpub, Ltub, dgub...): worth echoing back, it is public. */
  pastedAs: ExtendedKeyPrefix;
  key: HDKey;
}

function versionsOf(net: UtxoNet): { public: number; private: number } {
  const prefix = canonicalPrefix(net);
  return { public: extendedKeyVersions[prefix], private: extendedKeyVersions[prefix === 'xpub' ? 'xprv' : 'tprv'] };
}

function privateKeyRefusal() {
  return err(
    invalid(
      'xpub',
      'This is an extended PRIVATE key (xprv, zprv, tprv, Ltpv, dgpv...). Never give it to the server; export the extended public key instead',
    ),
  );
}

/**
 * Parses the account-level extended public key of a Bitcoin-family wallet for one chain and node network. Accepts
 * the forms wallets export (see `acceptedPrefixes`), refuses every private form without echoing it, refuses keys of
 * another chain, network or script type (ypub, Mtub...), and keys that are not at account depth (a master key or a
 * branch key would give addresses the wallet never looks at).
 *
 * @example
 * parseUtxoXpub('zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs', 'btc', 'main')
 * // { ok: true, value: { xpub: 'xpub6CatWdiZiodmUeTDp8LT5or8nmbKNcuyvz7WyksVFkKB4RHwCD3XyuvPEbvqAQY3rAPshWcMLoP2fMFMKHPJ4ZeZXYVUhLv1VMrjPC7PW6V', pastedAs: 'zpub', key } }
 */
export function parseUtxoXpub(text: string, chain: UtxoChain, net: UtxoNet): Result<UtxoAccountKey> {
  const trimmed = text.trim();
  // A private key with a typo fails its checksum: still say what it is, still without echoing it.
  if (/^(?:[xyztuvXYZUV]prv|Ltpv|Mtpv|ttpv|dgpv)/.test(trimmed)) return privateKeyRefusal();
  let payload: Uint8Array;
  try {
    payload = base58check.decode(trimmed);
  } catch {
    return err(invalid('xpub', 'Not a valid extended public key (expected base58 text with a valid checksum)'));
  }
  if (payload.length !== 78)
    return err(invalid('xpub', 'Not a valid extended public key (expected 78 bytes once decoded)'));
  if (payload[KEY_DATA_OFFSET] === 0) return privateKeyRefusal();
  const version = new DataView(payload.buffer, payload.byteOffset, 4).getUint32(0, false);
  const prefix = prefixOfVersion(version);
  const accepted = acceptedPrefixes(chain, net);
  if (!prefix || !accepted.includes(prefix)) {
    const what = prefix ? `a ${prefix} key` : 'an extended key of unknown version';
    const hint =
      prefix === 'ypub' || prefix === 'upub' || prefix === 'Mtub'
        ? ' (P2SH-wrapped SegWit addresses: the wallet would not see payments to native SegWit ones)'
        : '';
    return err(
      invalid(
        'xpub',
        `This is ${what}${hint}; ${NAMES[chain]} ${NET_NAMES[net]} takes the account key of ${accountPath(chain, net)} as ${accepted.join(', ')}`,
      ),
    );
  }
  if (payload[4] !== ACCOUNT_DEPTH)
    return err(
      invalid(
        'xpub',
        `This key is at depth ${payload[4]}; export the account key (depth 3, ${accountPath(chain, net)}), as wallets show it`,
      ),
    );
  const canonical = new Uint8Array(payload);
  new DataView(canonical.buffer).setUint32(0, versionsOf(net).public, false);
  const xpub = base58check.encode(canonical);
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(xpub, versionsOf(net));
  } catch {
    return err(invalid('xpub', 'Not a valid extended public key (its public key is not a curve point)'));
  }
  return ok({ xpub, pastedAs: prefix, key });
}

// Parsing the key and deriving the receive branch cost a point multiplication each; keep the branch node.
const branches = new Map<string, HDKey>();
const MAX_CACHED = 10_000;

function receiveBranch(xpub: string, chain: UtxoChain, net: UtxoNet): HDKey {
  const id = `${chain}:${net}:${xpub}`;
  let branch = branches.get(id);
  if (!branch) {
    const parsed = parseUtxoXpub(xpub, chain, net);
    if (!parsed.ok) throw parsed.error;
    branch = parsed.value.key.deriveChild(0);
    if (branches.size >= MAX_CACHED) branches.clear();
    branches.set(id, branch);
  }
  return branch;
}

/**
 * The address of payment `index`: receive child 0/index of the account key (public derivation only), encoded as the
 * chain's receive kind on that network. Takes the stored key (or any accepted form of it).
 *
 * @example
 * // BIP84's test vector, account m/84'/0'/0':
 * utxoAddressAt('zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs', 'btc', 'main', 0)
 * // 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'
 */
export function utxoAddressAt(xpub: string, chain: UtxoChain, net: UtxoNet, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index > MAX_ADDRESS_INDEX)
    throw new RangeError(`address index out of range: ${index}`);
  const child = receiveBranch(xpub, chain, net).deriveChild(index);
  if (!child.identifier) throw new Error('derived key has no public key');
  return keyHashAddress(child.identifier, chain, net);
}
