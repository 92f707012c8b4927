/**
 * Mask penalty score, ISO/IEC 18004 section 7.8.3; the encoder keeps the mask with the lowest score.
 * N1: each run of 5 + i same-coloured modules in a row or column scores 3 + i.
 * N2: each 2x2 block of one colour scores 3.
 * N3: each 11-module window 00001011101 or 10111010000 (a 1:1:3:1:1 finder look-alike with 4 light modules
 *     on one side) inside the symbol, in a row or column, scores 40.
 * N4: 10 points per full 5% the dark share deviates from 50%. (The `qrcode` package scores |ceil(dark% / 5) - 10|,
 *     which charges 10 points for 50-55%; that is why it picks a different mask for about 1% of payment URIs.)
 *
 * It runs 8 times per symbol, so it works on bits: every row (and, separately, every column) is cut into
 * 32-bit chunks that start 20 modules apart. Each chunk then holds every window (at most 11 modules) that
 * starts in its first 20 positions, so all patterns are found with single-word shifts, counted only at the
 * start positions a chunk owns, and no data-dependent branch is taken (a module-by-module scan spent most of
 * its time in mispredicted branches on the random-looking data).
 */

/**
 * Distance between the starts of consecutive chunks: 20 + 11 <= 32 keeps the widest window in one word, and
 * a multiple of 4 lets `packLines` read 4 modules per 32-bit load.
 */
const STRIDE = 20;

/** Chunks per row: enough that every start position up to `size - 2` is owned by one. */
export function chunksPerLine(size: number): number {
  return Math.ceil((size - 1) / STRIDE);
}

/** Bytes per row in the layout `packLines` reads: rows padded to whole 32-bit words. */
export function linePitch(size: number): number {
  return (size + 3) & ~3;
}

// Gathers the low bits of a word's 4 bytes (module order = memory order) into bits 24-27 of the product;
// the partial products that land elsewhere are discarded by the shift. The byte order decides the constant.
const GATHER = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 0x01020408 : 0x08040201;

/**
 * Packs 0/1 module bytes laid out `linePitch(size)` bytes per line (rows, or columns of a transposed copy),
 * zero-padded, seen through a Uint32Array, into chunks: `out[line * chunksPerLine(size) + k]` bit j is the
 * module at position 20k + j of the line. Bits past the line's end are padding or don't matter: `maskPenalty`
 * never counts a window that crosses the edge.
 */
export function packLines(m32: Uint32Array, size: number, out: Int32Array): void {
  const chunks = chunksPerLine(size);
  const wordsPerLine = linePitch(size) >>> 2;
  let o = 0;
  for (let line = 0; line < size; line++) {
    const lineStart = line * wordsPerLine;
    for (let k = 0; k < chunks; k++) {
      const first = (k * STRIDE) >>> 2;
      const last = Math.min(first + 8, wordsPerLine);
      let word = 0;
      for (let w = first, shift = 0; w < last; w++, shift += 4) {
        word |= ((Math.imul(m32[lineStart + w] as number, GATHER) >>> 24) & 0xf) << shift;
      }
      out[o++] = word;
    }
  }
}

function lowBits(n: number): number {
  if (n <= 0) return 0;
  return n >= 32 ? -1 : (1 << n) - 1;
}

// Bit counts of 11-bit values: two lookups cover the 20 start positions a chunk owns, and most of the
// words counted (owned bits only) are that narrow; the dark count masks to at most 21 bits.
const BITS11 = new Uint8Array(2048);
for (let i = 1; i < 2048; i++) BITS11[i] = (i & 1) + (BITS11[i >>> 1] as number);

/** Bit count of a value below 2^22. */
function popcount(x: number): number {
  return (BITS11[x & 0x7ff] as number) + (BITS11[x >>> 11] as number);
}

/** N1 + N3 of one line chunk, N3 weighted: the part both directions share. */
function runsAndFinders(x: number, run5Valid: number, finderValid: number): number {
  const same = ~(x ^ (x >>> 1)); // bit j: modules j and j+1 match
  const run5 = same & (same >>> 1) & (same >>> 2) & (same >>> 3) & run5Valid; // j..j+4 all one colour
  // A run of length L >= 5 has L - 4 set bits in run5 and one run end: (L - 4) + 2 = 3 + (L - 5).
  const runEnd = run5 & ~(run5 >>> 1);
  const n = ~x;
  const core = x & (n >>> 1) & (x >>> 2) & (x >>> 3) & (x >>> 4) & (n >>> 5) & (x >>> 6); // 1011101 at j
  const light4 = n & (n >>> 1) & (n >>> 2) & (n >>> 3);
  const finders = ((light4 & (core >>> 4)) | (core & (light4 >>> 7))) & finderValid;
  return popcount(run5 & OWNED) + 2 * popcount(runEnd & OWNED) + 40 * popcount(finders);
}

const OWNED = lowBits(STRIDE);

/**
 * Penalty of the symbol whose rows and columns are packed in `rows` and `cols` (see `packLines`).
 *
 * @example maskPenalty(rows, cols, 21) // 3 * N2 + N1 + 40 * N3 + 10 * k
 */
export function maskPenalty(rows: Int32Array, cols: Int32Array, size: number): number {
  const chunks = chunksPerLine(size);
  let score = 0;
  let blocks = 0;
  let dark = 0;
  for (let k = 0; k < chunks; k++) {
    const width = Math.min(32, size - k * STRIDE);
    // Start positions whose whole window lies inside both the word and the symbol.
    const run5Valid = lowBits(Math.min(28, width - 4));
    const finderValid = lowBits(Math.min(STRIDE, width - 10));
    const pairValid = lowBits(Math.min(STRIDE, width - 1));
    const darkOwned = lowBits(k === chunks - 1 ? width : STRIDE);
    let prev = rows[k] as number;
    for (let line = 0; line < size; line++) {
      const i = line * chunks + k;
      const x = rows[i] as number;
      score += runsAndFinders(x, run5Valid, finderValid);
      score += runsAndFinders(cols[i] as number, run5Valid, finderValid);
      dark += popcount(x & darkOwned);
      if (line > 0) {
        // 2x2 block at (line - 1, j): both rows flat over j..j+1 and equal to each other.
        const flat = ~(prev ^ (prev >>> 1)) & ~(x ^ (x >>> 1)) & ~(prev ^ x);
        blocks += popcount(flat & pairValid);
      }
      prev = x;
    }
  }
  const total = size * size;
  // floor(|dark% - 50| / 5) in integers; total is odd, so the share is never exactly 50%.
  const k = Math.floor(Math.abs(dark * 20 - total * 10) / total);
  return score + blocks * 3 + k * 10;
}
