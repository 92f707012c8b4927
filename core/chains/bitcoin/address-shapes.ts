import { BASE58 } from '../../catalog/address-shapes.js';

/** The bech32 data alphabet (BIP-173): no 1, b, i, o. */
const BECH32 = '[02-9ac-hj-np-z]';
const BECH32_UPPER = '[02-9AC-HJ-NP-Z]';

/**
 * Segwit v0 (P2WPKH 20-byte / P2WSH 32-byte programs) and v1 taproot, in the all-lower or all-upper form
 * BIP-173 allows (upper case is what QR codes carry); mixed case is invalid bech32.
 */
export function segwit(hrp: string): string {
  const lower = `${hrp}1q(?:${BECH32}{38}|${BECH32}{58})|${hrp}1p${BECH32}{58}`;
  const upper = `${hrp.toUpperCase()}1Q(?:${BECH32_UPPER}{38}|${BECH32_UPPER}{58})|${hrp.toUpperCase()}1P${BECH32_UPPER}{58}`;
  return `${lower}|${upper}`;
}

/** Legacy P2PKH (1..., 26-34 chars) and P2SH (3..., 34 chars), plus segwit. */
export const BTC_ADDRESS = `^(?:[13]${BASE58}{25,33}|${segwit('bc')})$`;
/**
 * L (P2PKH, version 0x30), M (P2SH, version 0x32), ltc1 segwit. Litecoin's deprecated 3... P2SH form is refused
 * on purpose: it is indistinguishable from a Bitcoin P2SH address, the classic way to lose coins.
 */
export const LTC_ADDRESS = `^(?:[LM]${BASE58}{33}|${segwit('ltc')})$`;
/** D (P2PKH, version 0x1e: the second character is always 5..U) and 9/A (P2SH, version 0x16). */
export const DOGE_ADDRESS = `^(?:D[5-9A-HJ-NP-U]${BASE58}{32}|[9A]${BASE58}{33})$`;
