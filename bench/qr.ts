import { pathToFileURL } from 'node:url';
import { correction, generate } from 'lean-qr';
import { toSvgDataURL } from 'lean-qr/extras/svg';
import QRCode from 'qrcode';
import { encode, renderSVG } from 'uqr';
import type { ChainFamily } from '../core/catalog/types.js';
import { qrMatrix, qrSvgDataUrl } from '../core/qr/encode.js';
import { paymentUris } from '../core/qr/payment-uri.js';

/**
 * QR encoding micro-benchmark: milliseconds per code for the libraries we compared and for our encoder, over
 * the payment URIs a payment creation renders (both the address-only and the amount payload). Budget: every
 * payment creation renders two codes and the target is 1,500 creations per second on 2 cores, so one code
 * must cost well under 0.3 ms. Run alone with `npx tsx bench/qr.ts`; the main benchmark calls `measureQr`.
 */

/** Per-code budget in milliseconds (target: 1,500 payments/s, two codes each, 2 cores). */
export const QR_BUDGET_MS = 0.3;

const HEX = '0123456789abcdefABCDEF';
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/** `count` payment URIs (alternately with and without amount) of every family, reproducibly random. */
export function samplePaymentUris(count: number): string[] {
  let seed = 42;
  const rand = (n: number): number => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed % n;
  };
  const pick = (alphabet: string, length: number): string => {
    let s = '';
    for (let i = 0; i < length; i++) s += alphabet[rand(alphabet.length)];
    return s;
  };
  const shapes: {
    family: ChainFamily;
    network: string;
    address: () => string;
    token?: () => string;
    chainId?: number;
    tag?: boolean;
    decimals: number;
  }[] = [
    { family: 'utxo', network: 'btc', address: () => `bc1q${pick(BECH32, 38)}`, decimals: 8 },
    { family: 'utxo', network: 'ltc', address: () => `ltc1q${pick(BECH32, 38)}`, decimals: 8 },
    { family: 'utxo', network: 'doge', address: () => `D${pick(BASE58, 33)}`, decimals: 8 },
    { family: 'evm', network: 'eth', address: () => `0x${pick(HEX, 40)}`, chainId: 1, decimals: 18 },
    {
      family: 'evm',
      network: 'eth',
      address: () => `0x${pick(HEX, 40)}`,
      token: () => `0x${pick(HEX, 40)}`,
      chainId: 1,
      decimals: 6,
    },
    {
      family: 'evm',
      network: 'bsc',
      address: () => `0x${pick(HEX, 40)}`,
      token: () => `0x${pick(HEX, 40)}`,
      chainId: 56,
      decimals: 18,
    },
    {
      family: 'tron',
      network: 'trx',
      address: () => `T${pick(BASE58, 33)}`,
      token: () => `T${pick(BASE58, 33)}`,
      decimals: 6,
    },
    { family: 'solana', network: 'sol', address: () => pick(BASE58, 44), decimals: 9 },
    { family: 'xrp', network: 'xrp', address: () => `r${pick(BASE58, 33)}`, tag: true, decimals: 6 },
  ];
  const out: string[] = [];
  for (let i = 0; out.length < count; i++) {
    const s = shapes[i % shapes.length] as (typeof shapes)[number];
    const units = BigInt(rand(1_000_000_000)) * 10n ** BigInt(rand(s.decimals - 2)) + BigInt(rand(1000));
    const text = units.toString().padStart(s.decimals + 1, '0');
    const amountText = `${text.slice(0, -s.decimals)}.${text.slice(-s.decimals)}`.replace(/\.?0+$/, '');
    const uris = paymentUris({
      family: s.family,
      network: s.network,
      address: s.address(),
      amountText,
      units,
      extraId: s.tag ? String(rand(4_294_967_295)) : null,
      smartContract: s.token ? s.token() : null,
      chainId: s.chainId ?? null,
    });
    out.push(uris.payload, uris.amountPayload);
  }
  return out.slice(0, count);
}

type Candidate = [name: string, run: (text: string) => unknown, sampleShare: number];

const M = { minCorrectionLevel: correction.M, maxCorrectionLevel: correction.M };

const candidates: Candidate[] = [
  ['qrcode create', (t) => QRCode.create(t, { errorCorrectionLevel: 'M' }), 1],
  ['qrcode toString svg', (t) => QRCode.toString(t, { errorCorrectionLevel: 'M', type: 'svg' }), 1],
  // PNG costs milliseconds per code; a tenth of the samples is enough to see it.
  ['qrcode toDataURL png', (t) => QRCode.toDataURL(t, { errorCorrectionLevel: 'M' }), 0.1],
  ['lean-qr generate', (t) => generate(t, M), 1],
  ['lean-qr toSvgDataURL', (t) => toSvgDataURL(generate(t, M)), 1],
  ['uqr encode', (t) => encode(t, { ecc: 'M' }), 1],
  ['uqr renderSVG', (t) => renderSVG(t, { ecc: 'M' }), 1],
  ['ours qrMatrix', qrMatrix, 1],
  ['ours qrSvgDataUrl', qrSvgDataUrl, 1],
];

async function timePerCall(run: (text: string) => unknown, texts: string[]): Promise<number> {
  // Warm up so the JIT has compiled the hot paths, then keep the best of three rounds to shed noise.
  for (const t of texts.slice(0, 200)) await run(t);
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    const start = performance.now();
    for (const t of texts) {
      const r = run(t);
      if (r instanceof Promise) await r;
    }
    best = Math.min(best, (performance.now() - start) / texts.length);
  }
  return best;
}

/**
 * Milliseconds per code for each candidate, over `count` sample payment URIs.
 *
 * @example const { 'ours qrSvgDataUrl': ms } = await measureQr(); // ~0.07
 */
export async function measureQr(count = 4000): Promise<Record<string, number>> {
  const texts = samplePaymentUris(count);
  const result: Record<string, number> = {};
  for (const [name, run, share] of candidates) {
    result[name] = await timePerCall(run, texts.slice(0, Math.max(200, Math.round(texts.length * share))));
  }
  return result;
}

async function main(): Promise<void> {
  const texts = samplePaymentUris(4000);
  const bytes = texts.reduce((n, t) => n + t.length, 0) / texts.length;
  const svgChars = texts.slice(0, 500).reduce((n, t) => n + qrSvgDataUrl(t).length, 0) / 500;
  console.log(`QR encoding, ms per code, ${texts.length} payment URIs (mean ${bytes.toFixed(0)} bytes):`);
  for (const [name, ms] of Object.entries(await measureQr(texts.length))) {
    const verdict = ms < QR_BUDGET_MS ? 'within' : 'over';
    console.log(`  ${name.padEnd(22)} ${ms.toFixed(4).padStart(8)} ms  (${verdict} the ${QR_BUDGET_MS} ms budget)`);
  }
  console.log(`  our SVG data URL: ${svgChars.toFixed(0)} characters on average`);
}

// Run as a script; stay silent when the main benchmark imports `measureQr`. No top-level await, so the module
// also loads where synchronous imports are used.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
