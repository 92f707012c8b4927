import { rsRemainder } from './reed-solomon.js';

/**
 * Byte-mode data encoding and block interleaving at error correction level M (ISO/IEC 18004 sections
 * 7.4 and 7.6). Level M is fixed by our design: it survives a smudged or partly covered screen while
 * keeping payment URIs at versions 4-8, which phone cameras read at a glance.
 */

// Indexed by version (index 0 unused). ISO/IEC 18004 table 9, level M.
const ECC_PER_BLOCK_M = [
  0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28,
  28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
];
const BLOCKS_M = [
  0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33,
  35, 37, 38, 40, 43, 45, 47, 49,
];

/** Modules left for codewords and remainder bits once every function pattern is drawn. */
export function rawDataModules(version: number): number {
  let result = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const align = Math.floor(version / 7) + 2;
    result -= (25 * align - 10) * align - 55;
    if (version >= 7) result -= 36;
  }
  return result;
}

const TOTAL_CODEWORDS = new Uint16Array(41);
const DATA_CODEWORDS_M = new Uint16Array(41);
for (let v = 1; v <= 40; v++) {
  const total = rawDataModules(v) >> 3;
  TOTAL_CODEWORDS[v] = total;
  DATA_CODEWORDS_M[v] = total - (ECC_PER_BLOCK_M[v] as number) * (BLOCKS_M[v] as number);
}

/** Longest byte payload one QR symbol holds at level M (version 40). */
export const MAX_BYTES_M = (DATA_CODEWORDS_M[40] as number) - 3;

/**
 * Smallest version whose level-M data capacity fits `byteLength` bytes in one byte-mode segment, or 0 when
 * none does. Header: 4-bit mode + 8-bit count (versions 1-9) or 16-bit count (10-40); the last 4 bits of the
 * final header-shifted byte are the terminator, hence the whole-byte overheads of 2 and 3.
 */
export function chooseVersion(byteLength: number): number {
  for (let v = 1; v <= 40; v++) {
    const overhead = v < 10 ? 2 : 3;
    if (byteLength + overhead <= (DATA_CODEWORDS_M[v] as number)) return v;
  }
  return 0;
}

/**
 * Final codeword sequence (data then ECC, interleaved across blocks) for `bytes` at `version`, level M.
 * The caller has checked the capacity with `chooseVersion`.
 */
export function buildCodewords(bytes: Uint8Array, byteLength: number, version: number): Uint8Array {
  const dataLen = DATA_CODEWORDS_M[version] as number;
  const data = new Uint8Array(dataLen);
  // Mode indicator 0100 (byte) followed by the count; every data byte then straddles two codewords by a nibble.
  let pos: number;
  if (version < 10) {
    data[0] = 0x40 | (byteLength >>> 4);
    pos = 1;
  } else {
    data[0] = 0x40 | (byteLength >>> 12);
    data[1] = (byteLength >>> 4) & 0xff;
    pos = 2;
  }
  let carry = (byteLength & 0x0f) << 4;
  for (let i = 0; i < byteLength; i++) {
    const b = bytes[i] as number;
    data[pos++] = carry | (b >>> 4);
    carry = (b & 0x0f) << 4;
  }
  // The low nibble left zero is the 4-bit terminator; capacity was checked so it always fits.
  data[pos++] = carry;
  for (let pad = 0xec; pos < dataLen; pad ^= 0xec ^ 0x11) data[pos++] = pad;

  const total = TOTAL_CODEWORDS[version] as number;
  const blocks = BLOCKS_M[version] as number;
  const ecc = ECC_PER_BLOCK_M[version] as number;
  const shortBlocks = blocks - (total % blocks);
  const shortData = Math.floor(total / blocks) - ecc;

  const out = new Uint8Array(total);
  const eccBuf = new Uint8Array(blocks * ecc);
  // Data interleave: codeword i of every block in turn; long blocks (the last ones) have one more.
  let blockStart = 0;
  for (let b = 0; b < blocks; b++) {
    const len = shortData + (b < shortBlocks ? 0 : 1);
    rsRemainder(data, blockStart, len, ecc, eccBuf, b * ecc);
    let o = b;
    for (let i = 0; i < shortData; i++, o += blocks) out[o] = data[blockStart + i] as number;
    if (len > shortData) out[shortData * blocks + (b - shortBlocks)] = data[blockStart + shortData] as number;
    blockStart += len;
  }
  const eccStart = dataLen;
  for (let b = 0; b < blocks; b++) {
    let o = eccStart + b;
    for (let i = 0; i < ecc; i++, o += blocks) out[o] = eccBuf[b * ecc + i] as number;
  }
  return out;
}
