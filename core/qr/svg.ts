/**
 * SVG rendering of a QR matrix as a data URL. One `<path>` strokes every horizontal run of dark modules with
 * a 1-module-wide line through the row's middle (as the `qrcode` package's SVG does), written with relative
 * moves so a run costs about 8 characters. The URL is percent-encoded rather than base64: the SVG is ASCII
 * and only `<`, `>` and spaces need escaping, so it comes out about 25% shorter. Every character left
 * unescaped is legal in a URL, so the result works in an `<img src>`, in CSS and in JSON as it is.
 *
 * The text is written as ASCII bytes into a reused buffer and decoded once: half the cost of concatenating
 * a few hundred small strings, and the result is one flat string that JSON serialises without flattening.
 */

const QUIET_ZONE = 4;
/** Rendered width in pixels, roughly: modules are a whole number of pixels so edges stay crisp. */
const TARGET_PX = 256;

const M = 0x6d; // 'm'
const H = 0x68; // 'h'
const COMMA = 0x2c;
const MINUS = 0x2d;
const ZERO = 0x30;

const ascii = new TextEncoder();
const decoder = new TextDecoder();
const heads: Uint8Array[] = [];
const TAIL = ascii.encode(escapeSvg(`'/></svg>`));
let buf = new Uint8Array(16384);

function escapeSvg(svg: string): string {
  return svg.replaceAll('<', '%3C').replaceAll('>', '%3E').replaceAll(' ', '%20');
}

function head(size: number): Uint8Array {
  const cached = heads[size];
  if (cached !== undefined) return cached;
  const n = size + 2 * QUIET_ZONE;
  const px = n * Math.max(1, Math.round(TARGET_PX / n));
  const svg =
    `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 ${n} ${n}' width='${px}' height='${px}' ` +
    `shape-rendering='crispEdges'><rect width='${n}' height='${n}' fill='white'/>` +
    // The path starts 4 modules in and half a module down: strokes run through the middle of each row.
    `<path stroke='black' stroke-width='1' d='M${QUIET_ZONE} ${QUIET_ZONE + 0.5}`;
  const bytes = ascii.encode(`data:image/svg+xml,${escapeSvg(svg)}`);
  heads[size] = bytes;
  return bytes;
}

/** Writes the decimal digits of an integer with |n| < 1000 at `pos`; returns the next position. */
function putInt(pos: number, n: number): number {
  let p = pos;
  let v = n;
  if (v < 0) {
    buf[p++] = MINUS;
    v = -v;
  }
  if (v >= 100) buf[p++] = ZERO + ((v / 100) | 0);
  if (v >= 10) buf[p++] = ZERO + (((v / 10) | 0) % 10);
  buf[p++] = ZERO + (v % 10);
  return p;
}

/**
 * `data:image/svg+xml,...` URL of `modules` (row-major, 1 = dark) with a 4-module quiet zone.
 *
 * @example svgDataUrl(symbol.modules, symbol.size) // "data:image/svg+xml,%3Csvg%20xmlns=..."
 */
export function svgDataUrl(modules: Uint8Array, size: number): string {
  const start = head(size);
  // At most ceil(size / 2) runs a row: the first at most 13 bytes ("m-177,177h177"), the others 10 ("m177,0h177").
  const need = start.length + size * (5 * size + 8) + TAIL.length;
  if (buf.length < need) buf = new Uint8Array(need);
  buf.set(start, 0);
  let pos = start.length;
  // Pen position (column, row) in modules; it begins at the origin that `M` in the head set.
  let px = 0;
  let py = 0;
  for (let r = 0; r < size; r++) {
    const row = r * size;
    let c = 0;
    while (c < size) {
      if (modules[row + c] === 0) {
        c++;
        continue;
      }
      const first = c;
      while (c < size && modules[row + c] === 1) c++;
      buf[pos++] = M;
      pos = putInt(pos, first - px);
      buf[pos++] = COMMA;
      pos = putInt(pos, r - py);
      buf[pos++] = H;
      pos = putInt(pos, c - first);
      px = c;
      py = r;
    }
  }
  buf.set(TAIL, pos);
  pos += TAIL.length;
  return decoder.decode(buf.subarray(0, pos));
}
