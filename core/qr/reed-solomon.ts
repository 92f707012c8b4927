/**
 * Reed-Solomon error correction over GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11d),
 * ISO/IEC 18004 section 7.5.2. Tables are built once; generators are cached per ECC length because a
 * QR symbol only ever uses the handful of lengths in the version table.
 */

// EXP is doubled so EXP[a + b] never needs a `% 255` in the hot loop.
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
{
  let x = 1;
  for (let i = 0; i < 255; i++) {
    EXP[i] = x;
    LOG[x] = i;
    x <<= 1;
    if (x & 0x100) x ^= 0x11d;
  }
  for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255] as number;
}

const generatorLogs = new Map<number, Uint8Array>();

/**
 * Generator polynomial (x - a^0)(x - a^1)...(x - a^(n-1)), leading 1 dropped, coefficients stored as
 * logarithms: every coefficient is non-zero, so the log form is total and saves a lookup per step.
 */
function generatorLog(degree: number): Uint8Array {
  const cached = generatorLogs.get(degree);
  if (cached) return cached;
  // Coefficients from highest to lowest degree, leading 1 implicit.
  const coef = new Uint8Array(degree);
  coef[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    // Multiply by (x - root): shift left and add root * current.
    for (let j = 0; j < degree; j++) {
      const next = j + 1 < degree ? (coef[j + 1] as number) : 0;
      coef[j] = gfMul(coef[j] as number, root) ^ next;
    }
    root = gfMul(root, 2);
  }
  const logs = new Uint8Array(degree);
  for (let j = 0; j < degree; j++) logs[j] = LOG[coef[j] as number] as number;
  generatorLogs.set(degree, logs);
  return logs;
}

function gfMul(a: number, b: number): number {
  if (a === 0 || b === 0) return 0;
  return EXP[(LOG[a] as number) + (LOG[b] as number)] as number;
}

/**
 * Writes the `eccLength` error correction codewords of `data[start, start + length)` into
 * `out[outStart, outStart + eccLength)` (polynomial division remainder, computed in place).
 *
 * @example rsRemainder(codewords, 0, 16, 10, out, 0) // version 1-M: 16 data + 10 ECC codewords
 */
export function rsRemainder(
  data: Uint8Array,
  start: number,
  length: number,
  eccLength: number,
  out: Uint8Array,
  outStart: number,
): void {
  const gen = generatorLog(eccLength);
  const last = outStart + eccLength - 1;
  out.fill(0, outStart, last + 1);
  for (let i = start; i < start + length; i++) {
    const factor = (data[i] as number) ^ (out[outStart] as number);
    if (factor === 0) {
      // Shift the remainder register left by one codeword; nothing to add.
      for (let j = outStart; j < last; j++) out[j] = out[j + 1] as number;
      out[last] = 0;
      continue;
    }
    // Shift and add factor * generator in one pass.
    const lf = LOG[factor] as number;
    let g = 0;
    for (let j = outStart; j < last; j++, g++)
      out[j] = (out[j + 1] as number) ^ (EXP[lf + (gen[g] as number)] as number);
    out[last] = EXP[lf + (gen[g] as number)] as number;
  }
}
