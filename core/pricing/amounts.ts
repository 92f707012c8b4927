import type { Asset } from '../catalog/types.js';
import { invalid } from '../errors.js';
import {
  fromUnits,
  priceToAssetUnits,
  roundHalfUp,
  toUnits,
  unitsToFiat,
  unitsToUsd,
  usdToAssetUnits,
  usdToCents,
} from '../money/decimal.js';
import { type FiatCode, minorUnits } from '../money/fiat.js';
import type { UsdRate } from './types.js';

/** Largest price accepted, in USD: a guard against typos that would quote absurd amounts. */
export const MAX_PRICE_USD = 10_000_000n;

/**
 * A price in USD cents, by the one rule every way of creating a payment follows: the exact decimal text rounded
 * half-up to cents, at least 0.01 and at most MAX_PRICE_USD; anything else is the 422 on `amount`.
 *
 * @example priceCents('19.995') // 2000n
 */
export function priceCents(usdText: string): bigint {
  const cents = usdToCents(usdText);
  if (cents === null || cents <= 0n) throw invalid('amount', 'Amount must be at least 0.01 USD');
  if (cents > MAX_PRICE_USD * 100n) throw invalid('amount', `Amount must not exceed ${MAX_PRICE_USD} USD`);
  return cents;
}

/**
 * A price in the minor units of `currency` (cents, yen, fils), by the rule USD has always followed: the exact
 * decimal text rounded half-up to the currency's decimals (12.345 EUR is 12.35 EUR, 99.5 JPY is 100 JPY), at
 * least one minor unit and at most MAX_PRICE_USD whole units of the currency (the bound the API schemas state; a
 * price in another currency is also held to MAX_PRICE_USD of USD worth at creation, where its USD rate is at hand).
 *
 * @example priceMinor('1000', 'JPY') // 1000n
 */
export function priceMinor(text: string, currency: FiatCode): bigint {
  if (currency === 'USD') return priceCents(text);
  const digits = minorUnits(currency);
  const minor = roundHalfUp(text, digits);
  const smallest = fromUnits(1n, digits);
  if (minor === null || minor <= 0n) throw invalid('amount', `Amount must be at least ${smallest} ${currency}`);
  if (minor > MAX_PRICE_USD * 10n ** BigInt(digits)) {
    throw invalid('amount', `Amount must not exceed ${MAX_PRICE_USD} ${currency}`);
  }
  return minor;
}

/** A price's canonical decimal text in its currency ("12.5" EUR, "1000" JPY), as stored and as the API prints it. */
export function priceText(minor: bigint, currency: FiatCode): string {
  return fromUnits(minor, minorUnits(currency));
}

/** The asset amount a price asks for at `rate` (the currency's price of one unit): pay_amount's one rule. */
export function priceToUnits(asset: Asset, minor: bigint, currency: FiatCode, rate: string): bigint {
  return priceToAssetUnits(minor, minorUnits(currency), rate, asset.decimals);
}

/** What base units of an asset are worth in `currency` at `rate`, rounded half-up to its minor units. */
export function unitsValue(asset: Asset, units: bigint, currency: FiatCode, rate: string): string {
  return unitsToFiat(units, asset.decimals, rate, minorUnits(currency));
}

/** A rate as the provider returns it, or just its decimal text. */
export type RateInput = UsdRate | string;

const rateText = (rate: RateInput): string => (typeof rate === 'string' ? rate : rate.rate);

/** The asset's typical network fee in base units; the catalog is checked by its tests to always parse. */
function networkFeeUnits(asset: Asset): bigint | null {
  return toUnits(asset.networkFee, asset.decimals);
}

/**
 * The smallest payable amount of an asset (GET /minimum-amount, API §4.4): the asset's USD minimum at the
 * current rate, but never less than 10 network fees, so a fee can never eat a meaningful share of a payment
 * even when the coin's price falls. `minUsd` is what that minimum is worth, 2 dp half-up.
 *
 * @example
 * minimumAmount(btc, '65000') // { minUnits: 7693n, minUsd: '5' } with minUsd '5' and fee '0.000005'
 */
export function minimumAmount(asset: Asset, usdRate: RateInput): { minUnits: bigint; minUsd: string } {
  const rate = rateText(usdRate);
  const cents = usdToCents(asset.minUsd);
  if (cents === null) throw new RangeError(`bad minUsd ${asset.minUsd} for ${asset.code}`);
  // Rounded up like pay_amount, so paying exactly the minimum is always worth at least minUsd.
  const fromUsd = usdToAssetUnits(cents, rate, asset.decimals);
  const fee = networkFeeUnits(asset) ?? 0n;
  const minUnits = fromUsd > fee * 10n ? fromUsd : fee * 10n;
  return { minUnits, minUsd: unitsToUsd(minUnits, asset.decimals, rate) };
}

/**
 * The asset amount for a price (GET /estimate, API §4.5; USD unless `currency` says otherwise, `usdRate` then being
 * that currency's rate), computed exactly as a payment's `pay_amount`
 * would be: USD rounded half-up to cents, then rounded up to the asset's precision and 15 significant digits.
 * `feeUnits` is the typical network fee the sender pays on top, or null when the catalog has no usable figure.
 *
 * @example
 * estimate(btc, '65000', '100') // { units: 153847n, feeUnits: 500n }
 */
export function estimate(
  asset: Asset,
  usdRate: RateInput,
  usdAmountText: string,
  currency: FiatCode = 'USD',
): { units: bigint; feeUnits: bigint | null } {
  const minor = priceMinor(usdAmountText.trim(), currency);
  return { units: priceToUnits(asset, minor, currency, rateText(usdRate)), feeUnits: networkFeeUnits(asset) };
}
