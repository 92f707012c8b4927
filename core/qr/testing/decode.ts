import { Resvg } from '@resvg/resvg-js';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';

/**
 * Test helper: reads a QR image data URL back with tools that share no code with our encoder. An SVG is
 * rasterised by resvg (Rust), pixels are read by pngjs and decoded by jsQR; PNG data URLs skip resvg.
 * The text is decoded from jsQR's raw bytes as strict UTF-8, so a wrong byte cannot hide behind jsQR's
 * lenient text fallback. Throws when no code is found.
 *
 * @example expect(decodeQrDataUrl(payment.qr.code_url)).toBe(payment.qr.payload)
 */
export function decodeQrDataUrl(dataUrl: string, options: { pixelsPerModule?: number } = {}): string {
  const match = /^data:([^;,]+)(;base64)?,(.*)$/s.exec(dataUrl);
  if (!match) throw new Error('not a data URL');
  const [, mime, base64, body = ''] = match;
  const bytes = base64 ? Buffer.from(body, 'base64') : Buffer.from(decodeURIComponent(body), 'utf8');
  if (mime !== 'image/svg+xml' && mime !== 'image/png') throw new Error(`unsupported image type ${mime}`);
  const png = mime === 'image/svg+xml' ? rasterise(bytes.toString('utf8'), options.pixelsPerModule) : bytes;
  const image = PNG.sync.read(png);
  const code = jsQR(
    new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length),
    image.width,
    image.height,
  );
  if (!code) throw new Error('no QR code found in the image');
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(code.binaryData));
}

/**
 * SVG -> PNG. By default at the SVG's own width/height (what an `<img>` shows); with `pixelsPerModule`,
 * at that many pixels per viewBox unit, so large versions stay readable. No background is added: an SVG
 * without its own white background renders transparent, reads as black, and must fail.
 */
function rasterise(svg: string, pixelsPerModule: number | undefined): Buffer {
  const viewBoxWidth = Number(/viewBox=['"][\d.]+[ ,]+[\d.]+[ ,]+([\d.]+)/.exec(svg)?.[1] ?? Number.NaN);
  const fitTo =
    pixelsPerModule !== undefined && Number.isFinite(viewBoxWidth)
      ? { mode: 'width' as const, value: Math.round(viewBoxWidth * pixelsPerModule) }
      : { mode: 'original' as const };
  return new Resvg(svg, { fitTo }).render().asPng();
}
