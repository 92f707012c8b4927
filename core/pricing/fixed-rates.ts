import type { Asset } from '../catalog/types.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import { multiplyDecimal } from '../money/decimal.js';
import type { FiatCode } from '../money/fiat.js';
import type { FiatRate, RateProvider, UsdRate } from './types.js';

/**
 * USD prices of one whole unit, keyed by CoinGecko id, used by test-mode merchants (docs/architecture.md, sandbox chain).
 * Round numbers so amounts in tests and demos can be checked by hand.
 */
export const shippedTestRates: Readonly<Record<string, string>> = Object.freeze({
  bitcoin: '65000',
  ethereum: '3000',
  tether: '1',
  'usd-coin': '1',
  litecoin: '80',
  dogecoin: '0.15',
  binancecoin: '600',
  'polygon-ecosystem-token': '0.5',
  tron: '0.25',
  solana: '150',
  ripple: '0.5',
  monero: '150',
});

/**
 * Units of each listed fiat currency per US dollar in test mode: round figures near real ones, so a test-mode price
 * in any currency converts by hand (BTC = 65000 x 0.9 = 58500 EUR, 65000 x 150 = 9750000 JPY). `satisfies` makes
 * `tsc` refuse a currency added to core/money/fiat.ts without its test rate.
 */
export const shippedTestFiatPerUsd = Object.freeze({
  USD: '1',
  AED: '3.6',
  ARS: '900',
  AUD: '1.5',
  BDT: '120',
  BHD: '0.4',
  BMD: '1',
  BRL: '5',
  CAD: '1.4',
  CHF: '0.9',
  CLP: '900',
  CNY: '7',
  CZK: '23',
  DKK: '7',
  EUR: '0.9',
  GBP: '0.8',
  GEL: '2.7',
  HKD: '7.8',
  HUF: '360',
  IDR: '16000',
  ILS: '3.7',
  INR: '83',
  JPY: '150',
  KRW: '1400',
  KWD: '0.3',
  LKR: '300',
  MMK: '2100',
  MXN: '17',
  MYR: '4.5',
  NGN: '1500',
  NOK: '10.5',
  NZD: '1.6',
  PHP: '56',
  PKR: '280',
  PLN: '4',
  RUB: '90',
  SAR: '3.75',
  SEK: '10.5',
  SGD: '1.35',
  THB: '35',
  TRY: '32',
  TWD: '32',
  UAH: '40',
  VND: '25000',
  ZAR: '18.5',
} satisfies Record<FiatCode, string>);

/**
 * A RateProvider that never changes and never goes stale: each answer is stamped with the current time.
 *
 * @example
 * const rates = createFixedRates(systemClock);
 * (await rates.usdRate(catalog.get('BTC')!)).rate // '65000'
 * (await rates.rate(catalog.get('BTC')!, 'JPY')).rate // '9750000'
 */
export function createFixedRates(
  clock: Clock,
  rates: Readonly<Record<string, string>> = shippedTestRates,
): RateProvider {
  async function usdRate(asset: Asset): Promise<UsdRate> {
    const rate = Object.hasOwn(rates, asset.cgId) ? rates[asset.cgId] : undefined;
    if (rate === undefined) throw new AppError('UNAVAILABLE', `No test-mode price for ${asset.code} (${asset.cgId})`);
    return { rate, fetchedAt: clock.now() };
  }
  return {
    usdRate,
    async rate(asset: Asset, currency: FiatCode): Promise<FiatRate> {
      const usd = await usdRate(asset);
      // Exact decimal product: the test rate of BTC in EUR is 58500, never 58499.99999.
      return { rate: multiplyDecimal(usd.rate, shippedTestFiatPerUsd[currency]), fetchedAt: usd.fetchedAt };
    },
    status: () => ({
      state: 'fresh',
      updated_at: null,
      stale_since: null,
      stale_ids: [],
      last_error: null,
      last_error_at: null,
    }),
  };
}
