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
  /** How fresh the prices are, for /readyz, /metrics and the dashboard; answered from memory. */
  status(): RatesStatus;
}

/**
 * The state of a provider's prices. `off`: not refreshing (no live network is configured, so nothing quotes live
 * prices); `starting`: refreshing but no answer yet; `fresh`: every price younger than the staleness bound; `stale`:
 * some price is older or missing, so payments in those assets are refused until the source answers again.
 * Times are ISO 8601; `stale_ids` are the CoinGecko ids without a fresh price.
 */
export interface RatesStatus {
  state: 'off' | 'starting' | 'fresh' | 'stale';
  /** When the oldest price in use was fetched (null before any). */
  updated_at: string | null;
  /** When the first price went stale, or when refreshing started for a price never fetched; null while fresh. */
  stale_since: string | null;
  stale_ids: string[];
  /** The last refresh's failure, until a refresh succeeds; never holds the API key. */
  last_error: string | null;
  last_error_at: string | null;
}
