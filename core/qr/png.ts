import { crc32, deflateSync } from 'node:zlib';
import { qrMatrix } from './encode.js';

export const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function pngChunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(typed.length + 8);
  out.writeUInt32BE(data.length, 0);
  typed.copy(out, 4);
  out.writeUInt32BE(crc32(typed), typed.length + 4);
  return out;
}

/**
 * The QR code of `text` as a 1-bit PNG data URL, one pixel per module and no quiet zone: the widget scales it up
 * with `image-rendering: pixelated` and draws the quiet zone (ISO/IEC 18004: 4 modules) as white padding. The
 * drop-in's own copy of the code: about 0.35 KB gzipped in a payment answer, where the SVG path of the merchant
 * API costs about 0.65 KB, and the checkout's budget is 15 KB to the QR.
 *
 * @example qrPngDataUrl('bitcoin:bc1q...?amount=0.001') // "data:image/png;base64,iVBORw0KGgo..."
 */
export function qrPngDataUrl(text: string): string {
  const { size, modules } = qrMatrix(text);
  const n = size;
  const stride = Math.ceil(n / 8) + 1; // filter byte (0: none) + packed pixels, 1 = white
  const raw = Buffer.alloc(n * stride);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      if (modules[y * n + x] !== 1)
        raw[y * stride + 1 + (x >> 3)] = (raw[y * stride + 1 + (x >> 3)] as number) | (0x80 >> (x & 7));
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(n, 0);
  header.writeUInt32BE(n, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const png = Buffer.concat([
    SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}
