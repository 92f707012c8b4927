import { ed25519 } from '@noble/curves/ed25519.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { err, invalid, ok, type Result } from '../../errors.js';

/*
 * Monero keys and addresses, in our own code: monero-wallet-rpc 0.18 accepts ANY view key for an address (even the
 * spend key), so the service checks a merchant's key itself, and derives each payment's subaddress itself so the
 * index is taken in the payment's own store transaction (a wallet forgets a `create_address` it did not `store`).
 *
 * Notation (Monero's): G the ed25519 base point, l its order; (a, A) the private/public view key, (b, B) spend;
 * Hs(x) = keccak256(x) mod l. Subaddress (account i, index j): m = Hs("SubAddr\0" || a || i || j) (u32 LE each),
 * D = B + m*G, C = a*D. An output to (D, C) with transaction key R: derivation 8*a*R, s = Hs(derivation || varint n),
 * and its one-time key P = s*G + D, so P - s*G names the subaddress; the amount is XORed with keccak("amount" || s).
 */

const Point = ed25519.Point;
const G = Point.BASE;
/** Order of the base point (l). */
export const L = Point.Fn.ORDER;
/** Monero's second generator for amounts in commitments (rct::H). */
const H = Point.fromHex('8b655970153799af2aeadc9ff1add0ea6c7251d54154cfa92c173a0dd39c1f94');

export type MoneroNet = 'main' | 'test' | 'stage';
/** Network bytes (varint) of standard, integrated and subaddress forms. Regtest uses mainnet's. */
const NET_BYTES: Record<MoneroNet, { standard: number; integrated: number; subaddress: number }> = {
  main: { standard: 18, integrated: 19, subaddress: 42 },
  test: { standard: 53, integrated: 54, subaddress: 63 },
  stage: { standard: 24, integrated: 25, subaddress: 36 },
};

// ---- Monero base58: 8-byte blocks become 11 characters (the last, shorter block a fixed shorter length).
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const ENCODED_BLOCK = [0, 2, 3, 5, 6, 7, 9, 10, 11];

export function base58Encode(data: Uint8Array): string {
  let out = '';
  for (let i = 0; i < data.length; i += 8) {
    const block = data.subarray(i, Math.min(i + 8, data.length));
    let n = 0n;
    for (const b of block) n = (n << 8n) | BigInt(b);
    let s = '';
    for (let k = 0; k < (ENCODED_BLOCK[block.length] as number); k++) {
      s = ALPHABET[Number(n % 58n)] + s;
      n /= 58n;
    }
    out += s;
  }
  return out;
}

export function base58Decode(text: string): Uint8Array | null {
  const full = Math.floor(text.length / 11);
  const rest = text.length % 11;
  const lastBytes = ENCODED_BLOCK.indexOf(rest);
  if (lastBytes < 0) return null;
  const out = new Uint8Array(full * 8 + lastBytes);
  for (let blk = 0; blk * 11 < text.length; blk++) {
    const chunk = text.slice(blk * 11, blk * 11 + 11);
    const size = chunk.length === 11 ? 8 : lastBytes;
    let n = 0n;
    for (const c of chunk) {
      const d = ALPHABET.indexOf(c);
      if (d < 0) return null;
      n = n * 58n + BigInt(d);
    }
    if (n >> BigInt(size * 8) !== 0n) return null;
    for (let k = size - 1; k >= 0; k--) {
      out[blk * 8 + k] = Number(n & 0xffn);
      n >>= 8n;
    }
  }
  return out;
}

export function varint(n: number): Uint8Array {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return Uint8Array.from(out);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function leToBigint(b: Uint8Array): bigint {
  let n = 0n;
  for (let i = b.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(b[i] as number);
  return n;
}

function bigintToLe32(n: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let v = n;
  for (let i = 0; i < 32; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

function u32le(n: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n, true);
  return out;
}

const utf8 = (s: string) => new TextEncoder().encode(s);

/** Hs: keccak256 reduced mod l, as a scalar. */
export function hashToScalar(data: Uint8Array): bigint {
  return leToBigint(keccak_256(data)) % L;
}

/** s*G, with s = 0 allowed (the identity). */
function mulG(s: bigint): InstanceType<typeof Point> {
  return s === 0n ? Point.ZERO : G.multiply(s);
}

export interface MoneroAddress {
  net: MoneroNet;
  kind: 'standard' | 'subaddress';
  spendPub: Uint8Array;
  viewPub: Uint8Array;
}

/**
 * Decodes a standard address or subaddress (integrated addresses are refused: a payment gets its own subaddress).
 *
 * @example decodeAddress('46gEhmbm...') // { net: 'main', kind: 'standard', spendPub, viewPub }
 */
export function decodeAddress(text: string): MoneroAddress | null {
  const raw = base58Decode(text.trim());
  if (raw === null || raw.length !== 69) return null;
  const body = raw.subarray(0, 65);
  const sum = keccak_256(body).subarray(0, 4);
  if (bytesToHex(sum) !== bytesToHex(raw.subarray(65))) return null;
  const tag = raw[0] as number;
  for (const [net, bytes] of Object.entries(NET_BYTES) as [MoneroNet, (typeof NET_BYTES)[MoneroNet]][]) {
    const kind = tag === bytes.standard ? 'standard' : tag === bytes.subaddress ? 'subaddress' : null;
    if (!kind) continue;
    const spendPub = raw.slice(1, 33);
    const viewPub = raw.slice(33, 65);
    try {
      Point.fromBytes(spendPub);
      Point.fromBytes(viewPub);
    } catch {
      return null;
    }
    return { net, kind, spendPub, viewPub };
  }
  return null;
}

export function encodeAddress(a: MoneroAddress): string {
  const tag = a.kind === 'standard' ? NET_BYTES[a.net].standard : NET_BYTES[a.net].subaddress;
  const body = concat(varint(tag), a.spendPub, a.viewPub);
  return base58Encode(concat(body, keccak_256(body).subarray(0, 4)));
}

/** The merchant's checked keys: primary address and private view scalar (hex, 64 characters). */
export interface MoneroViewKey {
  address: string;
  net: MoneroNet;
  spendPub: Uint8Array;
  viewPub: Uint8Array;
  /** The private view key, a canonical scalar. */
  viewKey: bigint;
}

/**
 * Checks a primary address and a private view key pasted by a merchant. Refused: an address that is not a primary
 * address, a 25-word seed, a key that is not a canonical scalar, a key that is the SPEND key of the address (a*G = B:
 * the one key that can spend is never taken), and a view key of another address (a*G differs from A).
 *
 * @example parseViewKey('46gE...', 'a50369db...') // ok({ address, net: 'main', viewKey, ... })
 */
export function parseViewKey(addressText: string, keyText: string): Result<MoneroViewKey> {
  const addr = decodeAddress(addressText);
  if (!addr) return err(invalid('address', 'Not a Monero address (base58, network byte and checksum checked)'));
  if (addr.kind !== 'standard')
    return err(invalid('address', "Give the wallet's primary address (4... on mainnet), not a subaddress"));
  const key = keyText.trim();
  if (/^[a-z]+(\s+[a-z]+){11,}$/i.test(key))
    return err(invalid('view_key', 'That is a mnemonic seed: it can spend your funds. Give only the private view key'));
  if (!/^[0-9a-fA-F]{64}$/.test(key)) return err(invalid('view_key', 'A private view key is 64 hexadecimal digits'));
  const scalar = leToBigint(hexToBytes(key.toLowerCase()));
  if (scalar === 0n || scalar >= L) return err(invalid('view_key', 'Not a valid private key (not a reduced scalar)'));
  const pub = G.multiply(scalar).toBytes();
  if (bytesToHex(pub) === bytesToHex(addr.spendPub))
    return err(
      invalid(
        'view_key',
        'That is the private SPEND key of this address: it can spend your funds. Give the private view key',
      ),
    );
  if (bytesToHex(pub) !== bytesToHex(addr.viewPub))
    return err(invalid('view_key', 'This view key does not belong to this address'));
  return ok({
    address: encodeAddress(addr),
    net: addr.net,
    spendPub: addr.spendPub,
    viewPub: addr.viewPub,
    viewKey: scalar,
  });
}

/** The view key as stored: 64 hex digits, little-endian like every Monero key. */
export function viewKeyHex(k: bigint): string {
  return bytesToHex(bigintToLe32(k));
}

/** The spend public key D of subaddress (account, index); (0, 0) is B itself. */
export function subaddressSpendPub(k: Pick<MoneroViewKey, 'spendPub' | 'viewKey'>, account: number, index: number) {
  const B = Point.fromBytes(k.spendPub);
  if (account === 0 && index === 0) return B;
  const m = hashToScalar(concat(utf8('SubAddr\0'), bigintToLe32(k.viewKey), u32le(account), u32le(index)));
  return B.add(mulG(m));
}

/** Address whose spend public key is `D` (the primary address when D = B), for the merchant's view key. */
function addressOfSpendPub(k: MoneroViewKey, D: InstanceType<typeof Point>): string {
  if (bytesToHex(D.toBytes()) === bytesToHex(k.spendPub)) return k.address;
  return encodeAddress({
    net: k.net,
    kind: 'subaddress',
    spendPub: D.toBytes(),
    viewPub: D.multiply(k.viewKey).toBytes(),
  });
}

/**
 * Subaddress `index` of account 0: what payment number `index` pays to.
 *
 * @example subaddressAt(key, 1) // '8Bvb...' (the wallet's `create_address` on account 0 gives the same)
 */
export function subaddressAt(k: MoneroViewKey, index: number): string {
  return addressOfSpendPub(k, subaddressSpendPub(k, 0, index));
}

/** One output of a transaction, as monerod's JSON gives it (0.18: `tagged_key` with a view tag). */
export interface MoneroOutput {
  key: string;
  viewTag: string | null;
  /** rct ecdhInfo amount (16 hex digits), and the output's commitment (outPk). */
  encryptedAmount: string;
  commitment: string;
}

export interface ScannedOutput {
  index: number;
  /** The (sub)address of the merchant that this output pays. */
  address: string;
  /** Piconero, checked against the output's commitment. */
  amount: bigint;
}

/** Transaction public key (tag 0x01) and additional per-output keys (tag 0x04) from `extra`. */
export function txPubKeys(extra: readonly number[]): { main: Uint8Array | null; additional: Uint8Array[] } {
  const b = Uint8Array.from(extra);
  let main: Uint8Array | null = null;
  const additional: Uint8Array[] = [];
  let i = 0;
  const readVarint = () => {
    let v = 0;
    let shift = 0;
    while (i < b.length) {
      const byte = b[i++] as number;
      v += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) break;
      shift += 7;
    }
    return v;
  };
  while (i < b.length) {
    const tag = b[i++];
    if (tag === 0x01) {
      if (main === null) main = b.slice(i, i + 32);
      i += 32;
    } else if (tag === 0x04) {
      const n = readVarint();
      for (let k = 0; k < n; k++) additional.push(b.slice(i + 32 * k, i + 32 * k + 32));
      i += 32 * n;
    } else if (tag === 0x02 || tag === 0xde) {
      i += readVarint();
    } else break; // padding (0x00) or an unknown field: nothing we need follows reliably
  }
  return { main, additional };
}

function derivation(k: MoneroViewKey, R: Uint8Array): InstanceType<typeof Point> | null {
  try {
    return Point.fromBytes(R).multiply(k.viewKey).multiplyUnsafe(8n);
  } catch {
    return null;
  }
}

/**
 * Output `n` opened with a key derivation (8*a*R by the receiver, 8*r*A by the sender's tx key): its spend public key
 * D = P - Hs(derivation || n)*G (the address it pays, when D is that address's) and its amount, XORed with
 * keccak("amount" || s) and checked against the output's commitment. Null when the amount does not open it.
 */
export function openOutput(
  dBytes: Uint8Array,
  n: number,
  o: MoneroOutput,
): { D: InstanceType<typeof Point>; amount: bigint } | null {
  const s = hashToScalar(concat(dBytes, varint(n)));
  let D: InstanceType<typeof Point>;
  try {
    D = Point.fromHex(o.key).subtract(mulG(s));
  } catch {
    return null;
  }
  if (D.is0()) return null;
  const sBytes = bigintToLe32(s);
  const pad = keccak_256(concat(utf8('amount'), sBytes));
  const enc = hexToBytes(o.encryptedAmount);
  const plain = new Uint8Array(8);
  for (let i = 0; i < 8; i++) plain[i] = ((enc[i] as number) ^ (pad[i] as number)) & 0xff;
  const amount = leToBigint(plain);
  const mask = hashToScalar(concat(utf8('commitment_mask'), sBytes));
  const C = mulG(mask).add(amount === 0n ? Point.ZERO : H.multiplyUnsafe(amount));
  if (bytesToHex(C.toBytes()) !== o.commitment.toLowerCase()) return null;
  return { D, amount };
}

/**
 * The outputs of one RingCT transaction that pay `k`'s addresses (any account and index: no lookahead limit), with
 * their amounts. An amount that does not open the output's commitment is dropped: a sender cannot claim more than
 * the output carries.
 */
export function scanOutputs(
  k: MoneroViewKey,
  extra: readonly number[],
  outputs: readonly MoneroOutput[],
): ScannedOutput[] {
  const keys = txPubKeys(extra);
  const mainD = keys.main ? derivation(k, keys.main) : null;
  const found: ScannedOutput[] = [];
  outputs.forEach((o, n) => {
    const extraKey = keys.additional[n];
    const candidates = [mainD, extraKey ? derivation(k, extraKey) : null];
    for (const d of candidates) {
      if (!d) continue;
      const dBytes = d.toBytes();
      const nBytes = varint(n);
      if (o.viewTag !== null) {
        const tag = keccak_256(concat(utf8('view_tag'), dBytes, nBytes))[0] as number;
        if (tag !== Number.parseInt(o.viewTag, 16)) continue;
      }
      const opened = openOutput(dBytes, n, o);
      if (!opened) continue;
      const { D, amount } = opened;
      found.push({ index: n, address: addressOfSpendPub(k, D), amount });
      break;
    }
  });
  return found;
}

/**
 * A test-mode subaddress from a random seed: real encoding and checksum, its points the seed's hashes times G. The
 * seed is never stored, so nobody holds its keys: nothing must be sent to one on the real chain.
 */
export function sandboxSubaddress(seed: Uint8Array): string {
  const point = (label: string) => mulG(hashToScalar(concat(utf8(label), seed)) || 1n).toBytes();
  return encodeAddress({ net: 'main', kind: 'subaddress', spendPub: point('spend'), viewPub: point('view') });
}
