import type { Asset } from '../catalog/types.js';
import type { FiatCode } from '../money/fiat.js';

/** A price of one whole unit of an asset in a fiat currency, as exact decimal text, and when it was observed. */
export interface UsdRate {
  rate: string;
  fetchedAt: number;
}

/** The same shape for any currency: the name says only that it need not be USD. */
export type FiatRate = UsdRate;

/**
 * Where prices come from. Test mode uses fixed shipped rates; live mode a CoinGecko-compatible API.
 * `usdRate` and `rate` must answer from memory on the hot path (payment creation); they throw an AppError
 * UNAVAILABLE when the only price they have is older than the staleness bound. `usdRate(a)` is `rate(a, 'USD')`.
 */
export interface RateProvider {
  usdRate(asset: Asset): Promise<UsdRate>;
  rate(asset: Asset, currency: FiatCode): Promise<FiatRate>;
}
