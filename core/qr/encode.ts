import { svgDataUrl } from './svg.js';
import { encodeSymbol } from './symbol.js';

/**
 * QR codes for payment responses, by our own encoder (byte mode, level M, smallest version, mask by the ISO 18004
 * penalty rules; about 0.05 ms a code where the libraries measured take 0.5-1.3 ms, bench/qr.ts). Kept rather than
 * replaced by the `qrcode` package because it is contained (this folder, nothing else depends on its insides) and
 * checked by independent decoders (jsQR over resvg renderings, testing/decode.ts) and bit for bit against `qrcode`.
 */

/**
 * The module matrix of `text`: `modules[row * size + col]` is 1 for dark, without quiet zone.
 * Throws a RangeError when the UTF-8 text exceeds 2,331 bytes (version 40 at level M).
 *
 * @example qrMatrix('bitcoin:bc1q...?amount=0.001').size // 37 (version 5)
 */
export function qrMatrix(text: string): { size: number; modules: Uint8Array } {
  const { size, modules } = encodeSymbol(text);
  return { size, modules };
}

/**
 * A crisp, scalable SVG of the QR code of `text` as a `data:image/svg+xml,...` URL for an `<img src>`.
 *
 * @example qrSvgDataUrl('xrp:rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh?dt=12345&amount=25.5')
 */
export function qrSvgDataUrl(text: string): string {
  const { size, modules } = encodeSymbol(text);
  return svgDataUrl(modules, size);
}
