import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { qrMatrix, qrSvgDataUrl } from './encode.js';
import { chunksPerLine, linePitch, maskPenalty, packLines } from './penalty.js';
import { encodeSymbol } from './symbol.js';
import { decodeQrDataUrl } from './testing/decode.js';

/** Deterministic pseudo-random source so failures reproduce. */
function rng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

function pick(rand: (n: number) => number, alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[rand(alphabet.length)];
  return out;
}

const HEX = '0123456789abcdefABCDEF';
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/** Payment URIs of every shape we emit, with random addresses and amounts. */
function paymentUriSamples(count: number, seed = 1): string[] {
  const rand = rng(seed);
  const amount = (): string => `${rand(1000)}.${String(rand(100_000_000)).padStart(8, '0')}`.replace(/\.?0+$/, '');
  const evm = (): string => `0x${pick(rand, HEX, 40)}`;
  const shapes: (() => string)[] = [
    () => `bitcoin:bc1q${pick(rand, BECH32, 38)}?amount=${amount()}`,
    () => `bitcoin:bc1p${pick(rand, BECH32, 58)}`,
    () => `litecoin:ltc1q${pick(rand, BECH32, 38)}?amount=${amount()}`,
    () => `dogecoin:D${pick(rand, BASE58, 33)}?amount=${amount()}`,
    () => `ethereum:${evm()}@1?value=${rand(1_000_000_000)}${rand(1_000_000_000)}`,
    () => `ethereum:${evm()}@56/transfer?address=${evm()}&uint256=${rand(1_000_000_000)}${rand(1_000_000)}`,
    () => `ethereum:${evm()}@8453/transfer?address=${evm()}`,
    () => `tron:T${pick(rand, BASE58, 33)}?amount=${amount()}&token=T${pick(rand, BASE58, 33)}`,
    () => `solana:${pick(rand, BASE58, 44)}?amount=${amount()}&spl-token=${pick(rand, BASE58, 44)}`,
    () => `xrp:r${pick(rand, BASE58, 33)}?dt=${rand(4_294_967_295)}&amount=${amount()}`,
  ];
  return Array.from({ length: count }, (_, i) => (shapes[i % shapes.length] as () => string)());
}

/** Largest UTF-8 byte count per version at level M in one byte segment (ISO/IEC 18004 table 7). */
const BYTE_CAPACITY_M = [
  0, 14, 26, 42, 62, 84, 106, 122, 152, 180, 213, 251, 287, 331, 362, 412, 450, 504, 560, 624, 666, 711, 779, 857, 911,
  997, 1059, 1125, 1190, 1264, 1370, 1452, 1538, 1628, 1722, 1809, 1911, 1989, 2099, 2213, 2331,
];

function textOfBytes(bytes: number, seed: number): string {
  return pick(rng(seed), 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:/?&=.-_', bytes);
}

function qrcodeSymbol(text: string, mask?: number): QRCode.QRCode {
  const segment: QRCode.QRCodeSegment = { data: new TextEncoder().encode(text), mode: 'byte' };
  const options: QRCode.QRCodeOptions = { errorCorrectionLevel: 'M' };
  if (mask !== undefined) options.maskPattern = mask as QRCode.QRCodeMaskPattern;
  return QRCode.create([segment], options);
}

/**
 * ISO/IEC 18004 section 7.8.3 penalty, written the slow and obvious way as the reference for our bitwise one.
 */
function referencePenalty(m: Uint8Array, n: number): number {
  const at = (r: number, c: number): number => m[r * n + c] as number;
  let score = 0;
  for (const vertical of [false, true]) {
    for (let a = 0; a < n; a++) {
      const line = Array.from({ length: n }, (_, b) => (vertical ? at(b, a) : at(a, b)));
      let run = 1;
      for (let b = 1; b <= n; b++) {
        if (b < n && line[b] === line[b - 1]) run++;
        else {
          if (run >= 5) score += 3 + (run - 5);
          run = 1;
        }
      }
      const text = line.join('');
      for (let b = 0; b + 11 <= n; b++) {
        const window = text.slice(b, b + 11);
        if (window === '00001011101' || window === '10111010000') score += 40;
      }
    }
  }
  for (let r = 0; r + 1 < n; r++) {
    for (let c = 0; c + 1 < n; c++) {
      const sum = at(r, c) + at(r, c + 1) + at(r + 1, c) + at(r + 1, c + 1);
      if (sum === 0 || sum === 4) score += 3;
    }
  }
  const dark = m.reduce((s, v) => s + v, 0);
  return score + 10 * Math.floor(Math.abs((dark * 100) / (n * n) - 50) / 5);
}

/** Parses our path back into modules: `M x y` then `m dx,dy h len` per run of dark modules. */
function modulesOfSvg(dataUrl: string): { size: number; modules: Uint8Array } {
  const svg = decodeURIComponent(dataUrl.slice('data:image/svg+xml,'.length));
  const n = Number(/viewBox='0 0 (\d+) \1'/.exec(svg)?.[1]);
  const d = /<path [^>]*d='([^']*)'/.exec(svg)?.[1] ?? '';
  const size = n - 8;
  const modules = new Uint8Array(size * size);
  const head = /^M(\d+) (\d+)\.5/.exec(d);
  if (!head) throw new Error(`unexpected path start ${d.slice(0, 20)}`);
  let x = Number(head[1]);
  let y = Number(head[2]);
  const runs = d.slice(head[0].length);
  const re = /m(-?\d+),(-?\d+)h(\d+)/gy;
  let consumed = 0;
  for (let run = re.exec(runs); run; run = re.exec(runs)) {
    x += Number(run[1]);
    y += Number(run[2]);
    const len = Number(run[3]);
    for (let i = 0; i < len; i++) {
      const r = y - 4;
      const c = x + i - 4;
      if (r < 0 || r >= size || c < 0 || c >= size) throw new Error(`module (${r}, ${c}) in the quiet zone`);
      modules[r * size + c] = 1;
    }
    x += len;
    consumed = re.lastIndex;
  }
  expect(consumed).toBe(runs.length);
  return { size, modules };
}

describe('qrSvgDataUrl round trip through resvg + jsQR', () => {
  const uris = paymentUriSamples(60);
  const texts = [
    'bitcoin:bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq?amount=0.00123457',
    'ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=0x71C7656EC7ab88b098defB751B7401B5f6d8976F&uint256=12345000',
    'xrp:rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh?dt=4294967295&amount=25.5',
    'solana:HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk?amount=0.5&spl-token=EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    'tron:TJRabPrwbZy45sbavfcjinPJC18kjpRTv8?amount=10.25&token=TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    `bitcoin:bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq?amount=1&label=${'Order%20'.repeat(40)}`,
    textOfBytes(333, 7),
    textOfBytes(1000, 8),
    'Zahlung für Bestellung Nr. 42 — 10 €, 支付订单, оплата, 🧾✅',
    '😀'.repeat(120),
    'a',
  ];

  it.each([...texts, ...uris])('decodes %s at its natural size', (text) => {
    expect(decodeQrDataUrl(qrSvgDataUrl(text))).toBe(text);
  });

  it('decodes every version from 1 to 40 filled to capacity and one byte over', () => {
    for (let v = 1; v <= 40; v++) {
      const full = textOfBytes(BYTE_CAPACITY_M[v] as number, v);
      expect(qrMatrix(full).size).toBe(4 * v + 17);
      expect(decodeQrDataUrl(qrSvgDataUrl(full), { pixelsPerModule: 3 })).toBe(full);
      if (v < 40) expect(qrMatrix(`${full}x`).size).toBe(4 * (v + 1) + 17);
    }
  });
});

describe('qrMatrix agrees bit for bit with the qrcode package', () => {
  it('for every mask, at every version, given the same byte segment', () => {
    for (let v = 1; v <= 40; v++) {
      const text = textOfBytes(BYTE_CAPACITY_M[v] as number, 100 + v);
      for (let mask = 0; mask < 8; mask++) {
        const ours = encodeSymbol(text, mask);
        const theirs = qrcodeSymbol(text, mask);
        expect(ours.version).toBe(theirs.version);
        expect(Buffer.from(ours.modules).equals(Buffer.from(theirs.modules.data))).toBe(true);
      }
    }
  });

  it('whenever both pick the same mask on their own', () => {
    let sameMask = 0;
    const samples = [...paymentUriSamples(300, 2), ...Array.from({ length: 60 }, (_, i) => textOfBytes(5 + i * 37, i))];
    for (const text of samples) {
      const ours = encodeSymbol(text);
      const theirs = qrcodeSymbol(text);
      expect(ours.version).toBe(theirs.version);
      if (ours.mask !== theirs.maskPattern) continue;
      sameMask++;
      expect(Buffer.from(ours.modules).equals(Buffer.from(theirs.modules.data))).toBe(true);
    }
    // qrcode scores N4 as |ceil(dark% / 5) - 10| instead of floor(|dark% - 50| / 5), so a few choices differ.
    expect(sameMask).toBeGreaterThan(samples.length * 0.8);
  });
});

/** Our bitwise penalty of a finished symbol, packing it the way `encodeSymbol` does. */
function bitwisePenalty(m: Uint8Array, n: number): number {
  const pitch = linePitch(n);
  const rowMajor = new Uint8Array(n * pitch);
  const colMajor = new Uint8Array(n * pitch);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      rowMajor[r * pitch + c] = m[r * n + c] as number;
      colMajor[c * pitch + r] = m[r * n + c] as number;
    }
  }
  const rows = new Int32Array(n * chunksPerLine(n));
  const cols = new Int32Array(n * chunksPerLine(n));
  packLines(new Uint32Array(rowMajor.buffer), n, rows);
  packLines(new Uint32Array(colMajor.buffer), n, cols);
  return maskPenalty(rows, cols, n);
}

describe('mask choice', () => {
  it('scores every mask at every version exactly as the plain ISO 18004 reference does', () => {
    for (let v = 1; v <= 40; v++) {
      const text = textOfBytes(BYTE_CAPACITY_M[v] as number, 200 + v);
      for (let mask = 0; mask < 8; mask++) {
        const s = encodeSymbol(text, mask);
        expect(bitwisePenalty(s.modules, s.size)).toBe(referencePenalty(s.modules, s.size));
      }
    }
  });

  it('picks the mask with the lowest ISO 18004 penalty, the first on ties', () => {
    const samples = [...paymentUriSamples(40, 3), ...Array.from({ length: 20 }, (_, i) => textOfBytes(1 + i * 61, i))];
    for (const text of samples) {
      const scores = Array.from({ length: 8 }, (_, mask) => {
        const s = encodeSymbol(text, mask);
        return referencePenalty(s.modules, s.size);
      });
      expect(encodeSymbol(text).mask).toBe(scores.indexOf(Math.min(...scores)));
    }
  });
});

describe('qrMatrix', () => {
  it('returns a row-major 0/1 matrix without quiet zone', () => {
    const { size, modules } = qrMatrix('hello');
    expect(size).toBe(21);
    expect(modules.length).toBe(21 * 21);
    expect(modules.every((v) => v === 0 || v === 1)).toBe(true);
    // Top-left finder: a dark 7x7 ring, light ring, dark 3x3 core.
    expect([...modules.subarray(0, 7)]).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect([...modules.subarray(21, 28)]).toEqual([1, 0, 0, 0, 0, 0, 1]);
    expect([...modules.subarray(42, 49)]).toEqual([1, 0, 1, 1, 1, 0, 1]);
  });

  it('holds 2,331 UTF-8 bytes and refuses one more', () => {
    expect(qrMatrix('x'.repeat(2331)).size).toBe(177);
    expect(() => qrMatrix('x'.repeat(2332))).toThrow(RangeError);
    // 777 three-byte characters are 2,331 bytes; a two-byte character more is over.
    expect(qrMatrix('€'.repeat(777)).size).toBe(177);
    expect(() => qrMatrix(`${'€'.repeat(777)}é`)).toThrow(RangeError);
  });

  it('gives the same result on repeated calls (no state leaks between calls)', () => {
    const a = qrMatrix(textOfBytes(900, 1));
    qrMatrix('short');
    qrMatrix('€'.repeat(300));
    const b = qrMatrix(textOfBytes(900, 1));
    expect(Buffer.from(a.modules).equals(Buffer.from(b.modules))).toBe(true);
  });
});

describe('qrSvgDataUrl format', () => {
  const text = 'bitcoin:bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq?amount=0.00123457';

  it('is a percent-encoded SVG using only characters legal in a URL', () => {
    const url = qrSvgDataUrl(text);
    expect(url.startsWith('data:image/svg+xml,%3Csvg')).toBe(true);
    expect(url).toMatch(/^[A-Za-z0-9%'=:/.,+\-_]+$/);
  });

  it('draws exactly the matrix in one crisp path, inside a 4-module quiet zone', () => {
    for (const t of [text, textOfBytes(600, 4), '']) {
      const url = qrSvgDataUrl(t);
      const svg = decodeURIComponent(url.slice('data:image/svg+xml,'.length));
      const { size, modules } = qrMatrix(t);
      expect(svg.match(/<path /g)?.length).toBe(1);
      expect(svg).toContain(`viewBox='0 0 ${size + 8} ${size + 8}'`);
      expect(svg).toContain(`shape-rendering='crispEdges'`);
      const width = Number(/ width='(\d+)'/.exec(svg)?.[1]);
      expect(width % (size + 8)).toBe(0); // whole pixels per module
      expect(Math.abs(width - 256)).toBeLessThanOrEqual((size + 8) / 2);
      const drawn = modulesOfSvg(url);
      expect(drawn.size).toBe(size);
      expect(Buffer.from(drawn.modules).equals(Buffer.from(modules))).toBe(true);
    }
  });
});
