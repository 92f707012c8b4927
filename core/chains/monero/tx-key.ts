import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { L, type MoneroAddress, type MoneroOutput, openOutput, txPubKeys } from './monero.js';

/*
 * A refund's proof by transaction key (issue 30): a view key cannot see what the merchant's wallet sends, so the
 * merchant pastes the txid and the tx key (`get_tx_key`, the "transaction key" wallets show) and the service checks,
 * with its own arithmetic, what monero's `check_tx_key` checks (wallet2::check_tx_key_helper): the derivation
 * 8*r*A with the destination's view public key A, each output's spend key P - Hs(derivation || n)*G against the
 * destination's spend key B, and the amount decrypted from ecdhInfo and opened against the output's commitment.
 *
 * A subaddress destination needs nothing special here: wallet2 then makes the tx public key R = r*D (D the
 * subaddress spend key) instead of r*G, but derives with the subaddress's own view key C = a*D, so 8*r*C works the
 * same. With several subaddress destinations, each output n has its own key r_n (R_n in extra's tag 0x04), and the tx
 * key text is the main key followed by these additional keys, 64 hex digits each, as `get_tx_key` prints it.
 */

const Point = ed25519.Point;

/** The scalars of a tx key text (main key, then additional keys), or null when it is not one. */
export function parseTxKey(text: string): bigint[] | null {
  const t = text.trim().toLowerCase();
  if (t.length === 0 || t.length % 64 !== 0 || !/^[0-9a-f]+$/.test(t)) return null;
  const keys: bigint[] = [];
  for (let i = 0; i < t.length; i += 64) {
    const k = BigInt(`0x${bytesToHex(hexToBytes(t.slice(i, i + 64)).reverse())}`);
    if (k === 0n || k >= L) return null;
    keys.push(k);
  }
  return keys;
}

export interface TxKeyProof {
  /** Whether a key is the transaction's own: its R (or an R_n) is r*G, or r*D for the destination's spend key D. */
  keyOfTx: boolean;
  /** Piconero the transaction pays to the address, over every output the keys open; 0n when none. */
  received: bigint;
  /** Indices of those outputs. */
  outputs: number[];
}

/**
 * What a transaction pays `to`, proved by its tx key(s) (parseTxKey), as `check_tx_key` reports it.
 *
 * @example checkTxKey(decodeAddress(customer)!, parseTxKey(txKey)!, tx.extra, tx.outputs).received // 200000000000n
 */
export function checkTxKey(
  to: Pick<MoneroAddress, 'spendPub' | 'viewPub'>,
  keys: readonly bigint[],
  extra: readonly number[],
  outputs: readonly MoneroOutput[],
): TxKeyProof {
  const [main, ...additional] = keys;
  const B = Point.fromBytes(to.spendPub);
  const A = Point.fromBytes(to.viewPub);
  const pub = txPubKeys(extra);
  const publics = [pub.main, ...pub.additional].filter((x): x is Uint8Array => x !== null).map(bytesToHex);
  const keyOfTx = keys.some((r) => {
    const own = [Point.BASE.multiply(r), B.multiply(r)].map((p) => bytesToHex(p.toBytes()));
    return own.some((p) => publics.includes(p));
  });
  const derive = (r: bigint | undefined) => (r === undefined ? null : A.multiply(r).multiplyUnsafe(8n).toBytes());
  const mainD = derive(main);
  const Bhex = bytesToHex(B.toBytes());
  let received = 0n;
  const found: number[] = [];
  outputs.forEach((o, n) => {
    for (const d of [mainD, derive(additional[n])]) {
      if (!d) continue;
      const opened = openOutput(d, n, o);
      if (opened && bytesToHex(opened.D.toBytes()) === Bhex) {
        received += opened.amount;
        found.push(n);
        break;
      }
    }
  });
  return { keyOfTx, received, outputs: found };
}
