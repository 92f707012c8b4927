import { randomBytes } from 'node:crypto';

/**
 * Exact decimal money. Amounts live as bigint base units or canonical decimal strings; no float ever takes part
 * in arithmetic. A JS number is only produced at the JSON edge, and only from a string of at most 15 significant
 * digits, which a double holds exactly (see `Decimal` below).
 */

const DECIMAL_RE = /^(\d+)(?:\.(\d+))?$/;

/** Splits a non-negative decimal string into integer digits and scale: "12.340" -> { int: 12340n, scale: 3 }. */
export function parseDecimal(text: string): { int: bigint; scale: number } | null {
  const m = DECIMAL_RE.exec(text);
  if (!m) return null;
  const frac = m[2] ?? '';
  return { int: BigInt((m[1] ?? '0') + frac), scale: frac.length };
}

/**
 * Converts a JS number (from JSON input) to its shortest exact decimal text, refusing exponents the
 * caller did not intend. `String(n)` is the shortest round-trip representation, so no digits are invented.
 */
export function numberToDecimalText(n: number): string | null {
  if (!Number.isFinite(n) || n < 0) return null;
  const s = String(n);
  if (!s.includes('e')) return s;
  // Expand exponent notation exactly from the digits JS chose.
  const [mant = '', expText = '0'] = s.split('e');
  const exp = Number(expText);
  const [ip = '', fp = ''] = mant.split('.');
  const digits = ip + fp;
  const point = ip.length + exp;
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`.replace(/\.?0+$/, '') || '0';
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** Exact decimal text -> base units. Returns null when the text has more decimals than the asset allows. */
export function toUnits(text: string, decimals: number): bigint | null {
  const d = parseDecimal(text);
  if (!d) return null;
  const trimmedScale = trimScale(d.int, d.scale);
  if (trimmedScale.scale > decimals) return null;
  return trimmedScale.int * 10n ** BigInt(decimals - trimmedScale.scale);
}

function trimScale(int: bigint, scale: number): { int: bigint; scale: number } {
  while (scale > 0 && int % 10n === 0n) {
    int /= 10n;
    scale -= 1;
  }
  return { int, scale };
}

/** Base units -> canonical decimal text without trailing zeros: 123400n, 6 -> "0.1234". */
export function fromUnits(units: bigint, decimals: number): string {
  const neg = units < 0n;
  const abs = neg ? -units : units;
  const s = abs.toString().padStart(decimals + 1, '0');
  const ip = s.slice(0, s.length - decimals);
  const fp = s.slice(s.length - decimals).replace(/0+$/, '');
  return `${neg ? '-' : ''}${ip}${fp ? `.${fp}` : ''}`;
}

export function divCeil(a: bigint, b: bigint): bigint {
  if (b <= 0n) throw new RangeError('divisor must be positive');
  const q = a / b;
  return q * b < a ? q + 1n : q;
}

/** Half-up rounding of a decimal text to `dp` places, returning integer at that scale. */
export function roundHalfUp(text: string, dp: number): bigint | null {
  const d = parseDecimal(text);
  if (!d) return null;
  if (d.scale <= dp) return d.int * 10n ** BigInt(dp - d.scale);
  const div = 10n ** BigInt(d.scale - dp);
  const q = d.int / div;
  return (d.int % div) * 2n >= div ? q + 1n : q;
}

/** USD amounts have 2 decimals, rounded half-up. Returns cents. */
export function usdToCents(text: string): bigint | null {
  return roundHalfUp(text, 2);
}

export const MAX_SIGNIFICANT_DIGITS = 15;

/**
 * Converts a USD amount (cents) to an asset amount at a USD rate, rounded UP so the customer never underpays
 * by rounding: at most `precision` decimals and at most 15 significant digits (docs/architecture.md money rules).
 * Returns base units of an asset with `decimals` decimals (precision <= decimals).
 */
export function usdToAssetUnits(cents: bigint, usdRate: string, decimals: number, precision = decimals): bigint {
  return priceToAssetUnits(cents, 2, usdRate, decimals, precision);
}

/**
 * The same rule for a price in any currency: `minor` units of a currency with `minorDigits` decimals (yen 0,
 * cents 2, fils 3) at `rate` (that currency's price of one whole unit of the asset), rounded UP to the asset's
 * precision and 15 significant digits. USD is the case minorDigits = 2.
 *
 * @example priceToAssetUnits(1000n, 0, '9750000', 8) // 1000 JPY at 9,750,000 JPY/BTC = 10257n sat (rounded up)
 */
export function priceToAssetUnits(
  minor: bigint,
  minorDigits: number,
  rate: string,
  decimals: number,
  precision = decimals,
): bigint {
  const r = parseDecimal(rate);
  if (!r || r.int === 0n) throw new RangeError(`bad rate ${rate}`);
  const unit = 10n ** BigInt(minorDigits);
  // amount = minor / 10^minorDigits / (r.int / 10^r.scale); scaled to `dp` decimals and rounded up.
  const at = (dp: number) => divCeil(minor * 10n ** BigInt(r.scale + dp), unit * r.int);
  let dp = Math.min(precision, decimals);
  let scaled = at(dp);
  const excess = scaled.toString().length - MAX_SIGNIFICANT_DIGITS;
  if (excess > 0) {
    dp = Math.max(0, dp - excess);
    scaled = at(dp);
  }
  return scaled * 10n ** BigInt(decimals - dp);
}

/** USD value (decimal text, 2 dp half-up) of base units at a rate. For balances and minimums shown in USD. */
export function unitsToUsd(units: bigint, decimals: number, usdRate: string): string {
  return unitsToFiat(units, decimals, usdRate, 2);
}

/** Value of base units at a rate in any currency, as decimal text rounded half-up to its `minorDigits`. */
export function unitsToFiat(units: bigint, decimals: number, rate: string, minorDigits: number): string {
  const r = parseDecimal(rate);
  if (!r) throw new RangeError(`bad rate ${rate}`);
  const num = units * r.int; // scale: decimals + r.scale
  const scale = decimals + r.scale;
  return fromUnits(roundHalfUp(fromUnits(num, scale), minorDigits) ?? 0n, minorDigits);
}

/** Exact product of two non-negative decimal texts ("65000" x "0.92" = "59800"), canonical (no trailing zeros). */
export function multiplyDecimal(a: string, b: string): string {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  if (!x || !y) throw new RangeError(`bad decimal ${x ? b : a}`);
  return fromUnits(x.int * y.int, x.scale + y.scale);
}

/**
 * A decimal that must appear in JSON as a bare number with exactly these digits, never in exponent form
 * ("0.0000001", not "1e-7"). `stringifyJson` below writes it so.
 */
export class Decimal {
  constructor(readonly text: string) {}

  static units(units: bigint, decimals: number): Decimal {
    return new Decimal(fromUnits(units, decimals));
  }

  toString(): string {
    return this.text;
  }

  /** Plain JSON.stringify writes a number (its digits may change); `stringifyJson` keeps the text. */
  toJSON(): number {
    return Number(this.text);
  }
}

// A per-process nonce in the placeholder: customer text can never spell it, so no string is ever turned into a number.
const NONCE = randomBytes(9).toString('base64url');
const PLACEHOLDER = new RegExp(`"\\\\u0000${NONCE}:(-?\\d+(?:\\.\\d+)?)"`, 'g');

/**
 * JSON.stringify that writes `Decimal` values as bare JSON numbers with their exact digits, and bigints as
 * strings. The replacer sees each value before its `toJSON` (as `this[key]`) and puts a placeholder string in a
 * Decimal's place; the placeholders are then unquoted.
 */
export function stringifyJson(value: unknown, space?: number): string {
  const json = JSON.stringify(
    value,
    function (this: Record<string, unknown>, key: string, v: unknown) {
      const raw = this[key];
      if (raw instanceof Decimal) return `\u0000${NONCE}:${raw.text}`;
      return typeof v === 'bigint' ? v.toString() : v;
    },
    space,
  );
  return json.replace(PLACEHOLDER, '$1');
}
