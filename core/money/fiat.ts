/**
 * The fiat currencies a price may be set in: those CoinGecko's `/simple/supported_vs_currencies` quotes as fiat,
 * each with its ISO 4217 minor units (the number of decimals a price in it carries). Left out of that list: the
 * Venezuelan bolívar fuerte (VEF, withdrawn in 2018; its quote is a stale fixed figure), the IMF's SDR (XDR), the
 * metals (XAG, XAU) and the crypto units (btc, sats, bits, ...). One table, read by the API schemas, the pricing
 * rules, both rate sources and the OpenAPI document, so adding a currency is one line.
 */
export const fiatMinorUnits = {
  USD: 2,
  AED: 2,
  ARS: 2,
  AUD: 2,
  BDT: 2,
  BHD: 3,
  BMD: 2,
  BRL: 2,
  CAD: 2,
  CHF: 2,
  CLP: 0,
  CNY: 2,
  CZK: 2,
  DKK: 2,
  EUR: 2,
  GBP: 2,
  GEL: 2,
  HKD: 2,
  HUF: 2,
  IDR: 2,
  ILS: 2,
  INR: 2,
  JPY: 0,
  KRW: 0,
  KWD: 3,
  LKR: 2,
  MMK: 2,
  MXN: 2,
  MYR: 2,
  NGN: 2,
  NOK: 2,
  NZD: 2,
  PHP: 2,
  PKR: 2,
  PLN: 2,
  RUB: 2,
  SAR: 2,
  SEK: 2,
  SGD: 2,
  THB: 2,
  TRY: 2,
  TWD: 2,
  UAH: 2,
  VND: 0,
  ZAR: 2,
} as const satisfies Record<string, number>;

export type FiatCode = keyof typeof fiatMinorUnits;

/** Every code, upper case, USD first (the default). */
export const fiatCodes = Object.keys(fiatMinorUnits) as [FiatCode, ...FiatCode[]];

/** The currency every existing call and every merchant uses until told otherwise (API contract: priced in USD). */
export const DEFAULT_FIAT: FiatCode = 'USD';

/** Whether `code` (any case) is a listed fiat currency; input never indexes the table before this check. */
export function isFiatCode(code: string): code is FiatCode {
  return Object.hasOwn(fiatMinorUnits, code);
}

/** The listed code for any-case input ("eur" -> "EUR"), or null. */
export function fiatCode(text: string): FiatCode | null {
  const upper = text.toUpperCase();
  return isFiatCode(upper) ? upper : null;
}

/** Decimals of a price in `code` (JPY 0, EUR 2, KWD 3). */
export function minorUnits(code: FiatCode): number {
  return fiatMinorUnits[code];
}
