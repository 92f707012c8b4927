import { parseDecimal } from '../money/decimal.js';
import { shippedAssets } from './assets.js';
import type { Asset } from './types.js';

export interface Catalog {
  /** Every asset, lowest `priority` first. A fresh array each call, so callers may sort or filter it. */
  list(): Asset[];
  /** Looks an asset up by its code in any case: "btc", "Btc" and "BTC" are the same asset. */
  get(code: string): Asset | undefined;
}

export interface CatalogOverrides {
  /** Per-asset minimum in USD (decimal text), keyed by asset code in any case. */
  minUsd?: Record<string, string> | undefined;
}

/**
 * Builds the asset catalog once at start-up. Overrides are configuration, so a typo (unknown code, bad
 * number) stops start-up instead of silently leaving the default in place.
 *
 * @example
 * const catalog = createCatalog(shippedAssets, { minUsd: { btc: '20' } });
 * catalog.get('btc')?.minUsd // '20'
 */
export function createCatalog(assets: readonly Asset[] = shippedAssets, overrides: CatalogOverrides = {}): Catalog {
  const byCode = new Map<string, Asset>();
  for (const asset of assets) {
    const key = asset.code.toUpperCase();
    if (byCode.has(key)) throw new Error(`Asset catalog: duplicate code ${asset.code}`);
    byCode.set(key, { ...asset });
  }
  for (const [code, minUsd] of Object.entries(overrides.minUsd ?? {})) {
    const key = code.toUpperCase();
    const asset = byCode.get(key);
    if (!asset) throw new Error(`Asset catalog: minimum override for unknown asset ${code}`);
    if (!parseDecimal(minUsd))
      throw new Error(`Asset catalog: minimum for ${key} must be a decimal USD amount, got "${minUsd}"`);
    byCode.set(key, { ...asset, minUsd });
  }
  // Frozen so one caller cannot change what every other caller sees.
  for (const asset of byCode.values()) Object.freeze(asset);
  const ordered = [...byCode.values()].sort((a, b) => a.priority - b.priority || a.code.localeCompare(b.code));
  return {
    list: () => [...ordered],
    get: (code) => byCode.get(code.toUpperCase()),
  };
}

const compiled = new Map<string, RegExp>();

function regexOf(source: string): RegExp {
  let re = compiled.get(source);
  if (!re) {
    re = new RegExp(source);
    compiled.set(source, re);
  }
  return re;
}

/**
 * Whether `address` has the shape of a destination on the asset's network (its `walletRegex`). A shape check,
 * not a checksum check: the chain adapter decodes the address before it pays or watches it.
 *
 * @example
 * isValidAddress(catalog.get('BTC')!, '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa') // true
 */
export function isValidAddress(asset: Asset, address: string): boolean {
  return regexOf(asset.walletRegex).test(address);
}
