import type { Asset } from '../catalog/types.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { RateProvider, UsdRate } from './types.js';

/**
 * USD prices of one whole unit, keyed by CoinGecko id, used by test-mode merchants (DESIGN.md, sandbox chain).
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
 * A RateProvider that never changes and never goes stale: each answer is stamped with the current time.
 *
 * @example
 * const rates = createFixedRates(systemClock);
 * (await rates.usdRate(catalog.get('BTC')!)).rate // '65000'
 */
export function createFixedRates(
  clock: Clock,
  rates: Readonly<Record<string, string>> = shippedTestRates,
): RateProvider {
  return {
    async usdRate(asset: Asset): Promise<UsdRate> {
      const rate = Object.hasOwn(rates, asset.cgId) ? rates[asset.cgId] : undefined;
      if (rate === undefined) throw new AppError('UNAVAILABLE', `No test-mode price for ${asset.code} (${asset.cgId})`);
      return { rate, fetchedAt: clock.now() };
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
