import type { Asset } from '../catalog/types.js';

/** A USD price of one whole unit of an asset, as exact decimal text, and when it was observed. */
export interface UsdRate {
  rate: string;
  fetchedAt: number;
}

/**
 * Where prices come from. Test mode uses fixed shipped rates; live mode a CoinGecko-compatible API.
 * `usdRate` must answer from memory on the hot path (payment creation); it returns an AppError UNAVAILABLE
 * when the only price it has is older than the staleness bound.
 */
export interface RateProvider {
  usdRate(asset: Asset): Promise<UsdRate>;
}
