import { crc32, gunzipSync } from 'node:zlib';

/**
 * Gzip that spends time to save bytes, for the drop-in's static files, compressed once at build time: an optimal
 * parse (shortest path over every match, in the manner of Zopfli) under a cost model refined over a few
 * iterations, then blocks split where the statistics change (the stylesheet inside checkout.js, for one). Any
 * gzip reader inflates it: it is plain deflate. About 3% smaller than zlib's level 9 on checkout.js, which counts
 * against the checkout's 15 KB to the QR; too slow for answers made per request (those keep zlib).
 */

const WINDOW = 32768;
const MIN_MATCH = 3;
const MAX_MATCH = 258;
/** Candidates looked at per position; past this, farther matches rarely pay. */
const MAX_CHAIN = 4096;

const LEN_BASE = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
];
const LEN_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
  8193, 12289, 16385, 24577,
];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
/** Extra bits of the repeat codes of code lengths. */
const EXTRA_CL: Record<number, number> = { 16: 2, 17: 3, 18: 7 };
/** Order of the code length code lengths in a dynamic block header (RFC 1951 3.2.7). */
const CL_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** Length 3..258 -> its code's index 0..28 (symbol 257 + index). */
const LEN_CODE = new Uint8Array(MAX_MATCH + 1);
for (let c = 0; c < 29; c++) {
  const end = c === 28 ? 258 : (LEN_BASE[c + 1] as number) - 1;
  for (let l = LEN_BASE[c] as number; l <= end; l++) LEN_CODE[l] = c;
}
/** Distance 1..32768 -> its code 0..29. */
const DIST_CODE = new Uint8Array(WINDOW + 1);
for (let c = 0; c < 30; c++) {
  const end = c === 29 ? WINDOW : (DIST_BASE[c + 1] as number) - 1;
  for (let d = DIST_BASE[c] as number; d <= end; d++) DIST_CODE[d] = c;
}

/**
 * Every useful match at every position: for position i, entries `(len, dist)` with strictly growing length and
 * distance, each the nearest distance that reaches its length (a length up to `len` is best taken at `dist`).
 */
function findMatches(data: Uint8Array): { start: Int32Array; len: Uint16Array; dist: Uint16Array } {
  const n = data.length;
  const head = new Int32Array(1 << 16).fill(-1);
  const prev = new Int32Array(n).fill(-1);
  const start = new Int32Array(n + 1);
  let lens: number[] = [];
  let dists: number[] = [];
  const hashAt = (i: number) =>
    (((data[i] as number) << 8) ^ ((data[i + 1] as number) << 4) ^ (data[i + 2] as number)) & 0xffff;
  for (let i = 0; i < n; i++) {
    start[i] = lens.length;
    if (i + MIN_MATCH > n) continue;
    const h = hashAt(i);
    const max = Math.min(MAX_MATCH, n - i);
    let best = MIN_MATCH - 1;
    let chain = MAX_CHAIN;
    for (let j = head[h] as number; j >= 0 && i - j <= WINDOW && chain-- > 0; j = prev[j] as number) {
      // Only a match longer than the best so far is worth recording.
      if (data[j + best] !== data[i + best]) continue;
      let l = 0;
      while (l < max && data[j + l] === data[i + l]) l++;
      if (l > best) {
        best = l;
        lens.push(l);
        dists.push(i - j);
        if (l === max) break;
      }
    }
    prev[i] = head[h] as number;
    head[h] = i;
  }
  start[n] = lens.length;
  const out = { start, len: Uint16Array.from(lens), dist: Uint16Array.from(dists) };
  lens = [];
  dists = [];
  return out;
}

/** One parse: literals (`dist` 0, `len` the byte) and matches, in order. */
interface Parse {
  len: Uint16Array;
  dist: Uint16Array;
  count: number;
}

/** Bits of each symbol under a cost model: literal/length symbols (0..285) and distance codes (0..29). */
interface Costs {
  ll: Float64Array;
  d: Float64Array;
}

function fixedCosts(): Costs {
  const ll = new Float64Array(286);
  for (let s = 0; s < 286; s++) ll[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
  return { ll, d: new Float64Array(30).fill(5) };
}

/** Costs from a parse's statistics: -log2 of each symbol's share (an unseen symbol costs as if seen once). */
function entropyCosts(f: { ll: Float64Array; d: Float64Array }): Costs {
  const costs = (freq: Float64Array) => {
    let total = 0;
    for (const x of freq) total += x;
    const log = Math.log2(total || 1);
    return freq.map((x) => (x > 0 ? log - Math.log2(x) : log));
  };
  return { ll: costs(f.ll), d: costs(f.d) };
}

/** The cheapest parse of `data[from, to)` under `costs` (dynamic programming over positions). */
function optimalParse(
  data: Uint8Array,
  m: ReturnType<typeof findMatches>,
  from: number,
  to: number,
  costs: Costs,
): Parse {
  const n = to - from;
  const cost = new Float64Array(n + 1).fill(Number.POSITIVE_INFINITY);
  const stepLen = new Uint16Array(n + 1);
  const stepDist = new Uint16Array(n + 1);
  cost[0] = 0;
  const lenCost = new Float64Array(MAX_MATCH + 1);
  for (let l = MIN_MATCH; l <= MAX_MATCH; l++) {
    const c = LEN_CODE[l] as number;
    lenCost[l] = (costs.ll[257 + c] as number) + (LEN_EXTRA[c] as number);
  }
  for (let i = 0; i < n; i++) {
    const here = cost[i] as number;
    const lit = here + (costs.ll[data[from + i] as number] as number);
    if (lit < (cost[i + 1] as number)) {
      cost[i + 1] = lit;
      stepLen[i + 1] = 1;
      stepDist[i + 1] = 0;
    }
    const p = from + i;
    let shorter = MIN_MATCH - 1;
    for (let k = m.start[p] as number; k < (m.start[p + 1] as number); k++) {
      const d = m.dist[k] as number;
      const maxLen = Math.min(m.len[k] as number, n - i);
      const dc = DIST_CODE[d] as number;
      const base = here + (costs.d[dc] as number) + (DIST_EXTRA[dc] as number);
      for (let l = shorter + 1; l <= maxLen; l++) {
        const c = base + (lenCost[l] as number);
        if (c < (cost[i + l] as number)) {
          cost[i + l] = c;
          stepLen[i + l] = l;
          stepDist[i + l] = d;
        }
      }
      shorter = Math.max(shorter, maxLen);
    }
  }
  // Walk back from the end, then reverse.
  const len: number[] = [];
  const dist: number[] = [];
  for (let i = n; i > 0; ) {
    const l = stepLen[i] as number;
    const d = stepDist[i] as number;
    len.push(d === 0 ? (data[from + i - 1] as number) : l);
    dist.push(d);
    i -= l;
  }
  len.reverse();
  dist.reverse();
  return { len: Uint16Array.from(len), dist: Uint16Array.from(dist), count: len.length };
}

/** Symbol counts of a parse (end of block included). */
function stats(p: Parse): { ll: Float64Array; d: Float64Array } {
  const ll = new Float64Array(286);
  const d = new Float64Array(30);
  for (let k = 0; k < p.count; k++) {
    const dist = p.dist[k] as number;
    const s = dist === 0 ? (p.len[k] as number) : 257 + (LEN_CODE[p.len[k] as number] as number);
    ll[s] = (ll[s] as number) + 1;
    if (dist !== 0) {
      const c = DIST_CODE[dist] as number;
      d[c] = (d[c] as number) + 1;
    }
  }
  ll[256] = 1;
  return { ll, d };
}

/** Optimal code lengths no longer than `maxBits` (package-merge). */
function codeLengths(freq: ArrayLike<number>, maxBits: number): Uint8Array {
  const lengths = new Uint8Array(freq.length);
  const used: number[] = [];
  for (let s = 0; s < freq.length; s++) if ((freq[s] as number) > 0) used.push(s);
  if (used.length === 0) return lengths;
  if (used.length === 1) {
    lengths[used[0] as number] = 1;
    return lengths;
  }
  used.sort((a, b) => (freq[a] as number) - (freq[b] as number) || a - b);
  // Nodes: a leaf has a symbol; a package has two children.
  const weight: number[] = [];
  const sym: number[] = [];
  const left: number[] = [];
  const right: number[] = [];
  const node = (w: number, s: number, a: number, b: number) => {
    weight.push(w);
    sym.push(s);
    left.push(a);
    right.push(b);
    return weight.length - 1;
  };
  const leaves = used.map((s) => node(freq[s] as number, s, -1, -1));
  let list = leaves;
  for (let level = 1; level < maxBits; level++) {
    const packages: number[] = [];
    for (let k = 0; k + 1 < list.length; k += 2)
      packages.push(
        node(
          (weight[list[k] as number] as number) + (weight[list[k + 1] as number] as number),
          -1,
          list[k] as number,
          list[k + 1] as number,
        ),
      );
    const merged: number[] = [];
    let a = 0;
    let b = 0;
    while (a < leaves.length || b < packages.length) {
      if (
        b >= packages.length ||
        (a < leaves.length && (weight[leaves[a] as number] as number) <= (weight[packages[b] as number] as number))
      )
        merged.push(leaves[a++] as number);
      else merged.push(packages[b++] as number);
    }
    list = merged;
  }
  const stack = list.slice(0, 2 * used.length - 2);
  while (stack.length > 0) {
    const x = stack.pop() as number;
    const s = sym[x] as number;
    if (s >= 0) lengths[s] = (lengths[s] as number) + 1;
    else stack.push(left[x] as number, right[x] as number);
  }
  return lengths;
}

/** Canonical codes from code lengths (RFC 1951 3.2.2), bit-reversed for LSB-first output. */
function canonicalCodes(lengths: Uint8Array): Uint16Array {
  const count = new Uint16Array(16);
  for (const l of lengths) count[l] = (count[l] as number) + 1;
  count[0] = 0;
  const next = new Uint16Array(16);
  let code = 0;
  for (let bits = 1; bits < 16; bits++) {
    code = (code + (count[bits - 1] as number)) << 1;
    next[bits] = code;
  }
  const codes = new Uint16Array(lengths.length);
  for (let s = 0; s < lengths.length; s++) {
    const l = lengths[s] as number;
    if (l === 0) continue;
    let c = next[l] as number;
    next[l] = c + 1;
    let r = 0;
    for (let k = 0; k < l; k++) {
      r = (r << 1) | (c & 1);
      c >>= 1;
    }
    codes[s] = r;
  }
  return codes;
}

class BitWriter {
  bytes: number[] = [];
  private acc = 0;
  private n = 0;
  write(value: number, bits: number): void {
    this.acc |= value << this.n;
    this.n += bits;
    while (this.n >= 8) {
      this.bytes.push(this.acc & 0xff);
      this.acc >>>= 8;
      this.n -= 8;
    }
  }
  flush(): void {
    if (this.n > 0) this.bytes.push(this.acc & 0xff);
    this.acc = 0;
    this.n = 0;
  }
}

/** The code lengths of a block's two trees, run-length coded (symbols 16, 17, 18), as [symbol, extra] pairs. */
function runLengths(lengths: number[], use16: boolean, use17: boolean, use18: boolean): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < lengths.length; ) {
    const l = lengths[i] as number;
    let run = 1;
    while (i + run < lengths.length && lengths[i + run] === l) run++;
    let left = run;
    if (l === 0 && (use17 || use18)) {
      while (use18 && left >= 11) {
        const r = Math.min(left, 138);
        out.push([18, r - 11]);
        left -= r;
      }
      while (use17 && left >= 3) {
        const r = Math.min(left, 10);
        out.push([17, r - 3]);
        left -= r;
      }
    } else if (use16 && left >= 4) {
      out.push([l, 0]);
      left--;
      while (left >= 3) {
        const r = Math.min(left, 6);
        out.push([16, r - 3]);
        left -= r;
      }
    }
    for (; left > 0; left--) out.push([l, 0]);
    i += run;
  }
  return out;
}

/** Writes one dynamic Huffman block of `p` (or returns its size in bits when `w` is null). */
function writeBlock(p: Parse, final: boolean, w: BitWriter | null): number {
  const f = stats(p);
  // Two used codes at least in each tree, so every tree is complete (any inflater accepts it).
  if (f.d.filter((x) => x > 0).length < 2) {
    f.d[0] ||= 1;
    f.d[1] ||= 1;
  }
  const llLen = codeLengths(f.ll, 15);
  const dLen = codeLengths(f.d, 15);
  let hlit = 286;
  while (hlit > 257 && llLen[hlit - 1] === 0) hlit--;
  let hdist = 30;
  while (hdist > 1 && dLen[hdist - 1] === 0) hdist--;
  // The trees' own encoding: the cheapest of the run-length variants (with or without each repeat code).
  const all = [...llLen.subarray(0, hlit), ...dLen.subarray(0, hdist)];
  let header: { bits: number; rle: [number, number][]; clLen: Uint8Array; hclen: number } = {
    bits: Number.POSITIVE_INFINITY,
    rle: [],
    clLen: new Uint8Array(19),
    hclen: 19,
  };
  for (let v = 0; v < 8; v++) {
    const rle = runLengths(all, (v & 1) > 0, (v & 2) > 0, (v & 4) > 0);
    const clFreq = new Float64Array(19);
    for (const [s] of rle) clFreq[s] = (clFreq[s] as number) + 1;
    const clLen = codeLengths(clFreq, 7);
    let hclen = 19;
    while (hclen > 4 && clLen[CL_ORDER[hclen - 1] as number] === 0) hclen--;
    let bits = 3 + 5 + 5 + 4 + hclen * 3;
    for (const [s] of rle) bits += (clLen[s] as number) + (EXTRA_CL[s] ?? 0);
    if (bits < header.bits) header = { bits, rle, clLen, hclen };
  }
  const { rle, clLen, hclen } = header;
  let bits = header.bits;
  for (let k = 0; k < p.count; k++) {
    const dist = p.dist[k] as number;
    if (dist === 0) bits += llLen[p.len[k] as number] as number;
    else {
      const lc = LEN_CODE[p.len[k] as number] as number;
      const dc = DIST_CODE[dist] as number;
      bits +=
        (llLen[257 + lc] as number) + (LEN_EXTRA[lc] as number) + (dLen[dc] as number) + (DIST_EXTRA[dc] as number);
    }
  }
  bits += llLen[256] as number;
  if (!w) return bits;

  const llCode = canonicalCodes(llLen);
  const dCode = canonicalCodes(dLen);
  const clCode = canonicalCodes(clLen);
  w.write(final ? 1 : 0, 1);
  w.write(2, 2);
  w.write(hlit - 257, 5);
  w.write(hdist - 1, 5);
  w.write(hclen - 4, 4);
  for (let k = 0; k < hclen; k++) w.write(clLen[CL_ORDER[k] as number] as number, 3);
  for (const [s, extra] of rle) {
    w.write(clCode[s] as number, clLen[s] as number);
    if (s >= 16) w.write(extra, EXTRA_CL[s] as number);
  }
  for (let k = 0; k < p.count; k++) {
    const dist = p.dist[k] as number;
    const len = p.len[k] as number;
    if (dist === 0) w.write(llCode[len] as number, llLen[len] as number);
    else {
      const lc = LEN_CODE[len] as number;
      const dc = DIST_CODE[dist] as number;
      w.write(llCode[257 + lc] as number, llLen[257 + lc] as number);
      w.write(len - (LEN_BASE[lc] as number), LEN_EXTRA[lc] as number);
      w.write(dCode[dc] as number, dLen[dc] as number);
      w.write(dist - (DIST_BASE[dc] as number), DIST_EXTRA[dc] as number);
    }
  }
  w.write(llCode[256] as number, llLen[256] as number);
  return bits;
}

/** The best parse of `data[from, to)` found in `iterations` rounds of refining the cost model. */
function bestParse(
  data: Uint8Array,
  m: ReturnType<typeof findMatches>,
  from: number,
  to: number,
  iterations: number,
): Parse {
  let best = optimalParse(data, m, from, to, fixedCosts());
  let bestBits = writeBlock(best, true, null);
  let f = stats(best);
  let lastBits = bestBits;
  // A fixed seed: the same input always gives the same bytes.
  let seed = 1;
  const random = () => {
    seed = (seed * 48271) % 2147483647;
    return seed / 2147483647;
  };
  for (let k = 0; k < iterations; k++) {
    const p = optimalParse(data, m, from, to, entropyCosts(f));
    const bits = writeBlock(p, true, null);
    if (bits < bestBits) {
      best = p;
      bestBits = bits;
    }
    const next = stats(p);
    if (bits === lastBits) {
      // Stuck: shake the best statistics a little to leave the local optimum.
      next.ll = stats(best).ll.map((x) => (random() < 0.5 ? x : x * (0.5 + random())));
      next.d = stats(best).d.map((x) => (random() < 0.5 ? x : x * (0.5 + random())));
    } else if (k > 0) {
      // Part of the previous statistics stays, which damps oscillation between two parses.
      for (let s = 0; s < next.ll.length; s++) next.ll[s] = (next.ll[s] as number) + 0.5 * (f.ll[s] as number);
      for (let s = 0; s < next.d.length; s++) next.d[s] = (next.d[s] as number) + 0.5 * (f.d[s] as number);
    }
    f = next;
    lastBits = bits;
  }
  return best;
}

/** Bytes of `data[from, to)` covered by a parse's first `count` symbols. */
function slice(p: Parse, a: number, b: number): Parse {
  return { len: p.len.subarray(a, b), dist: p.dist.subarray(a, b), count: b - a };
}

/**
 * Block boundaries (as symbol indices of `p`) where splitting lowers the total size: recursive halving at the best
 * of a few candidate points, as long as a split pays for the extra block header.
 */
function splitPoints(p: Parse, a: number, b: number, out: number[]): void {
  if (b - a < 512) return;
  const whole = writeBlock(slice(p, a, b), false, null);
  let bestAt = -1;
  let bestBits = whole;
  const STEPS = 24;
  for (let s = 1; s < STEPS; s++) {
    const at = a + Math.floor(((b - a) * s) / STEPS);
    const bits = writeBlock(slice(p, a, at), false, null) + writeBlock(slice(p, at, b), false, null);
    if (bits < bestBits) {
      bestBits = bits;
      bestAt = at;
    }
  }
  if (bestAt < 0) return;
  splitPoints(p, a, bestAt, out);
  out.push(bestAt);
  splitPoints(p, bestAt, b, out);
}

/** Raw deflate of `data`, as small as a few iterations find. */
export function deflateBest(data: Uint8Array, iterations = 15): Buffer {
  const m = findMatches(data);
  const n = data.length;
  // Split on a first parse, then parse each block on its own statistics.
  const first = bestParse(data, m, 0, n, Math.min(iterations, 5));
  const cuts: number[] = [];
  splitPoints(first, 0, first.count, cuts);
  const bounds = [0];
  let pos = 0;
  let symbol = 0;
  for (const c of cuts) {
    for (; symbol < c; symbol++) pos += (first.dist[symbol] as number) === 0 ? 1 : (first.len[symbol] as number);
    bounds.push(pos);
  }
  bounds.push(n);
  const w = new BitWriter();
  for (let k = 0; k + 1 < bounds.length; k++) {
    const p = bestParse(data, m, bounds[k] as number, bounds[k + 1] as number, iterations);
    writeBlock(p, k + 2 === bounds.length, w);
  }
  w.flush();
  return Buffer.from(w.bytes);
}

/** A gzip member of `data` (deflateBest inside), checked by inflating it back. */
export function gzipBest(data: Uint8Array, iterations = 15): Buffer {
  const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 3]);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(data) >>> 0, 0);
  trailer.writeUInt32LE(data.length >>> 0, 4);
  const out = Buffer.concat([header, deflateBest(data, iterations), trailer]);
  if (!gunzipSync(out).equals(Buffer.from(data)))
    throw new Error('gzipBest: the output does not inflate back to the input');
  return out;
}
