import { buildCodewords, chooseVersion, MAX_BYTES_M } from './codewords.js';
import { chunksPerLine, linePitch, maskPenalty, packLines } from './penalty.js';
import { symbolTemplate } from './template.js';

/** A finished QR symbol: `modules[row * size + col]` is 1 for dark, without quiet zone. */
export interface QrSymbol {
  version: number;
  mask: number;
  size: number;
  modules: Uint8Array;
}

// Scratch buffers reused across calls: encoding is synchronous, so one set per thread is safe.
let utf8 = new Uint8Array(1024);
// Data bits by rows and by columns, in the padded layout packLines reads, with 32-bit views onto the same bytes.
let placedRows = new Uint8Array(0);
let placedCols = new Uint8Array(0);
let placedRows32 = new Uint32Array(0);
let placedCols32 = new Uint32Array(0);
let dataRows = new Int32Array(0);
let dataCols = new Int32Array(0);
let trialRows = new Int32Array(0);
let trialCols = new Int32Array(0);
const encoder = new TextEncoder();

function toUtf8(text: string): number {
  const n = text.length;
  // Every UTF-16 unit needs at least one UTF-8 byte: refuse before growing the scratch buffer for huge input.
  if (n > MAX_BYTES_M) throw new RangeError(`QR payload of at least ${n} bytes exceeds ${MAX_BYTES_M}`);
  if (utf8.length < n * 3) utf8 = new Uint8Array(n * 3);
  // Payment URIs are ASCII; a plain loop beats TextEncoder's call overhead on short strings.
  for (let i = 0; i < n; i++) {
    const ch = text.charCodeAt(i);
    if (ch >= 0x80) return encoder.encodeInto(text, utf8).written;
    utf8[i] = ch;
  }
  return n;
}

function ensureScratch(bytes: number, words: number): void {
  if (placedRows.length < bytes) {
    placedRows = new Uint8Array(bytes);
    placedCols = new Uint8Array(bytes);
    placedRows32 = new Uint32Array(placedRows.buffer);
    placedCols32 = new Uint32Array(placedCols.buffer);
  }
  if (dataRows.length < words) {
    dataRows = new Int32Array(words);
    dataCols = new Int32Array(words);
    trialRows = new Int32Array(words);
    trialCols = new Int32Array(words);
  }
}

/**
 * Encodes `text` as UTF-8 in one byte-mode segment at level M, in the smallest version that fits, with the
 * mask of lowest penalty (or `forcedMask`, which tests use to compare every mask with another encoder).
 * No ECI header: readers take byte mode as UTF-8, and an ECI would cost 8 bits on every ASCII URI.
 * Throws a RangeError when the UTF-8 text exceeds version 40's capacity (2,331 bytes).
 *
 * @example encodeSymbol('bitcoin:bc1q...?amount=0.001') // { version: 5, mask: 2, size: 37, modules }
 */
export function encodeSymbol(text: string, forcedMask?: number): QrSymbol {
  if (forcedMask !== undefined && !(forcedMask >= 0 && forcedMask <= 7 && Number.isInteger(forcedMask))) {
    throw new RangeError(`mask ${forcedMask} is not 0-7`);
  }
  const byteLength = toUtf8(text);
  const version = chooseVersion(byteLength);
  if (version === 0) throw new RangeError(`QR payload of ${byteLength} bytes exceeds ${MAX_BYTES_M}`);
  const codewords = buildCodewords(utf8, byteLength, version);
  const t = symbolTemplate(version);
  const { size, orderRows, orderCols } = t;
  const pitch = linePitch(size);
  const bytes = size * pitch;
  const words = size * chunksPerLine(size);
  ensureScratch(bytes, words);
  placedRows.fill(0, 0, bytes);
  placedCols.fill(0, 0, bytes);
  // Remainder modules past the last codeword stay 0, as the standard requires.
  const bits = codewords.length * 8;
  for (let i = 0; i < bits; i++) {
    const bit = ((codewords[i >>> 3] as number) >>> (7 - (i & 7))) & 1;
    placedRows[orderRows[i] as number] = bit;
    placedCols[orderCols[i] as number] = bit;
  }

  let best = forcedMask ?? 0;
  if (forcedMask === undefined) {
    // Masking is an XOR, so it commutes with packing: pack the data once, XOR with each packed template.
    packLines(placedRows32, size, dataRows);
    packLines(placedCols32, size, dataCols);
    let bestScore = Number.POSITIVE_INFINITY;
    for (let mask = 0; mask < 8; mask++) {
      xorInto(trialRows, t.maskedRows[mask] as Int32Array, dataRows, words);
      xorInto(trialCols, t.maskedCols[mask] as Int32Array, dataCols, words);
      const score = maskPenalty(trialRows, trialCols, size);
      if (score < bestScore) {
        bestScore = score;
        best = mask;
      }
    }
  }
  const masked = t.masked[best] as Uint8Array;
  const modules = new Uint8Array(size * size);
  for (let r = 0, i = 0; r < size; r++) {
    const row = r * pitch;
    for (let c = 0; c < size; c++, i++) modules[i] = (masked[i] as number) ^ (placedRows[row + c] as number);
  }
  return { version, mask: best, size, modules };
}

function xorInto(out: Int32Array, a: Int32Array, b: Int32Array, words: number): void {
  for (let i = 0; i < words; i++) out[i] = (a[i] as number) ^ (b[i] as number);
}
