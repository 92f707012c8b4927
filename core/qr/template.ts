import { chunksPerLine, linePitch, packLines } from './penalty.js';

/**
 * Per-version symbol templates (ISO/IEC 18004 sections 6.3 and 7.7-7.9), built once per version and cached.
 * A template holds, for each of the 8 masks, the complete symbol with no data: function patterns, format
 * and version information, and the mask pattern itself on every data module. Since data bits are XORed with
 * the mask, the finished symbol for mask m is simply `masked[m] XOR placedData`, which makes trying all 8
 * masks a handful of word-wide XORs instead of 8 redraws.
 */

export interface SymbolTemplate {
  version: number;
  size: number;
  /**
   * Data modules in codeword bit placement order, as offsets into the padded layout `packLines` reads:
   * `orderRows` row * pitch + col, `orderCols` (transposed) col * pitch + row, pitch = `linePitch(size)`.
   */
  orderRows: Uint16Array;
  orderCols: Uint16Array;
  /** Per mask: the symbol with all data bits 0. */
  masked: Uint8Array[];
  /** Per mask: `masked` packed by rows and by columns for `maskPenalty`. */
  maskedRows: Int32Array[];
  maskedCols: Int32Array[];
}

const templates: (SymbolTemplate | undefined)[] = [];

/** Template for `version` (1-40), built on first use. */
export function symbolTemplate(version: number): SymbolTemplate {
  const cached = templates[version];
  if (cached) return cached;
  const built = buildTemplate(version);
  templates[version] = built;
  return built;
}

/** Level M is indicator 00, so the 5 format data bits are just the mask number. */
export function formatBits(mask: number): number {
  let rem = mask;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  return ((mask << 10) | rem) ^ 0x5412;
}

function versionBits(version: number): number {
  let rem = version;
  for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
  return (version << 12) | rem;
}

/** Row/column centres of alignment patterns (ISO/IEC 18004 annex E). */
export function alignmentPositions(version: number): number[] {
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  const size = version * 4 + 17;
  const step = version === 32 ? 26 : Math.ceil((version * 4 + 4) / (count * 2 - 2)) * 2;
  const result = [6];
  for (let pos = size - 7; result.length < count; pos -= step) result.splice(1, 0, pos);
  return result;
}

/** Mask condition for the module at row `r`, column `c` (ISO/IEC 18004 table 10). */
export function maskBit(mask: number, r: number, c: number): boolean {
  switch (mask) {
    case 0:
      return (r + c) % 2 === 0;
    case 1:
      return r % 2 === 0;
    case 2:
      return c % 3 === 0;
    case 3:
      return (r + c) % 3 === 0;
    case 4:
      return (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0;
    case 5:
      return ((r * c) % 2) + ((r * c) % 3) === 0;
    case 6:
      return (((r * c) % 2) + ((r * c) % 3)) % 2 === 0;
    default:
      return (((r + c) % 2) + ((r * c) % 3)) % 2 === 0;
  }
}

function buildTemplate(version: number): SymbolTemplate {
  const size = version * 4 + 17;
  const cells = size * size;
  const base = new Uint8Array(cells);
  const reserved = new Uint8Array(cells);
  const set = (r: number, c: number, dark: boolean): void => {
    base[r * size + c] = dark ? 1 : 0;
    reserved[r * size + c] = 1;
  };

  for (let i = 0; i < size; i++) {
    set(6, i, i % 2 === 0);
    set(i, 6, i % 2 === 0);
  }
  // Finder patterns with their separators, clipped at the symbol edge.
  for (const [cr, cc] of [
    [3, 3],
    [3, size - 4],
    [size - 4, 3],
  ] as const) {
    for (let dr = -4; dr <= 4; dr++) {
      for (let dc = -4; dc <= 4; dc++) {
        const r = cr + dr;
        const c = cc + dc;
        if (r < 0 || r >= size || c < 0 || c >= size) continue;
        const dist = Math.max(Math.abs(dr), Math.abs(dc));
        set(r, c, dist !== 2 && dist !== 4);
      }
    }
  }
  const align = alignmentPositions(version);
  const last = align.length - 1;
  for (let i = 0; i <= last; i++) {
    for (let j = 0; j <= last; j++) {
      // The three corners overlap the finder patterns.
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) continue;
      const cr = align[i] as number;
      const cc = align[j] as number;
      for (let dr = -2; dr <= 2; dr++) {
        for (let dc = -2; dc <= 2; dc++) set(cr + dr, cc + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
      }
    }
  }
  // Reserve the format areas now (drawn per mask below) so data placement skips them.
  for (let i = 0; i < 9; i++) {
    reserved[8 * size + i] = 1;
    reserved[i * size + 8] = 1;
  }
  for (let i = 0; i < 8; i++) {
    reserved[8 * size + (size - 1 - i)] = 1;
    reserved[(size - 1 - i) * size + 8] = 1;
  }
  set(size - 8, 8, true); // the dark module
  if (version >= 7) {
    const bits = versionBits(version);
    for (let i = 0; i < 18; i++) {
      const dark = ((bits >>> i) & 1) === 1;
      const a = size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      set(b, a, dark);
      set(a, b, dark);
    }
  }

  // Zigzag placement: column pairs from the right, alternating up and down, skipping the timing column.
  const pitch = linePitch(size);
  const orderRows = new Uint16Array(cells);
  const orderCols = new Uint16Array(cells);
  let n = 0;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    const upward = ((right + 1) & 2) === 0;
    for (let vert = 0; vert < size; vert++) {
      const r = upward ? size - 1 - vert : vert;
      for (let j = 0; j < 2; j++) {
        const c = right - j;
        if (reserved[r * size + c]) continue;
        orderRows[n] = r * pitch + c;
        orderCols[n] = c * pitch + r;
        n++;
      }
    }
  }

  const masked: Uint8Array[] = [];
  const maskedRows: Int32Array[] = [];
  const maskedCols: Int32Array[] = [];
  const words = size * chunksPerLine(size);
  for (let mask = 0; mask < 8; mask++) {
    const m = new Uint8Array(cells);
    m.set(base);
    for (let r = 0; r < size; r++) {
      for (let c = 0; c < size; c++) {
        if (!reserved[r * size + c] && maskBit(mask, r, c)) m[r * size + c] = 1;
      }
    }
    const f = formatBits(mask);
    const bit = (i: number): number => (f >>> i) & 1;
    // First copy around the top-left finder, second split between the other two (section 7.9.1).
    for (let i = 0; i <= 5; i++) m[i * size + 8] = bit(i);
    m[7 * size + 8] = bit(6);
    m[8 * size + 8] = bit(7);
    m[8 * size + 7] = bit(8);
    for (let i = 9; i < 15; i++) m[8 * size + (14 - i)] = bit(i);
    for (let i = 0; i < 8; i++) m[8 * size + (size - 1 - i)] = bit(i);
    for (let i = 8; i < 15; i++) m[(size - 15 + i) * size + 8] = bit(i);
    masked.push(m);
    const rows = new Int32Array(words);
    const cols = new Int32Array(words);
    packLines(padded(m, size, false), size, rows);
    packLines(padded(m, size, true), size, cols);
    maskedRows.push(rows);
    maskedCols.push(cols);
  }

  return {
    version,
    size,
    orderRows: orderRows.slice(0, n),
    orderCols: orderCols.slice(0, n),
    masked,
    maskedRows,
    maskedCols,
  };
}

/** `m` (row-major, `size` per row) in the padded layout `packLines` reads, transposed on request. */
function padded(m: Uint8Array, size: number, transpose: boolean): Uint32Array {
  const pitch = linePitch(size);
  const out = new Uint8Array(size * pitch);
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) out[transpose ? c * pitch + r : r * pitch + c] = m[r * size + c] as number;
  }
  return new Uint32Array(out.buffer);
}
