import jsQR from 'jsqr';
import { PNG } from 'pngjs';

/** Decodes the QR code in a PNG screenshot (of the QR element), or null when none is readable. */
export function decodeQrPng(png: Buffer): string | null {
  const img = PNG.sync.read(png);
  const code = jsQR(
    new Uint8ClampedArray(img.data.buffer, img.data.byteOffset, img.data.length),
    img.width,
    img.height,
  );
  return code?.data ?? null;
}
