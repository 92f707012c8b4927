import { readFileSync } from 'node:fs';
import type { Hono } from 'hono';
import type { ApiDeps } from '../../api-kit/deps.js';
import { ok } from '../../api-kit/envelope.js';
import { assetTicker, networkName } from '../../core/catalog/asset-label.js';
import { enabledAssets } from '../../core/catalog/availability.js';
import type { Mode } from '../../core/deps.js';
import { fromUnits, roundHalfUp } from '../../core/money/decimal.js';
import { type FiatCode, fiatCode, minorUnits } from '../../core/money/fiat.js';
import { PUBLIC_DIR } from '../../core/paths.js';
import { minimumAmount, unitsValue } from '../../core/pricing/amounts.js';
import type { DropinEnv } from '../context.js';
import { checkoutView } from '../views.js';

const ICONS_DIR = `${PUBLIC_DIR}/icons/`;
const icons = new Map<string, string | null>();

/**
 * An asset icon as a data URL, read once. Inline in the list, the sixteen icons cost about 0.4 KB gzipped
 * instead of sixteen requests of about 0.3 KB each; null when the file is missing (the widget then uses icon_url).
 */
function iconDataUrl(file: string): string | null {
  let v = icons.get(file);
  if (v === undefined) {
    try {
      // Decorative in the picker (alt="" next to the asset's name): the file's title and ARIA label go, and
      // single quotes need no escaping, which takes the sixteen icons from about 0.8 to 0.4 KB gzipped. The
      // picker sizes the image, so the root's own width and height go too. Only `%` and `#` must be escaped in
      // a data URL's body (and line breaks, which collapse to spaces); `<`, `>` and spaces are kept as they are.
      const svg = readFileSync(`${ICONS_DIR}${file}`, 'utf8')
        .trim()
        .replace(/<title>[^<]*<\/title>|\s(?:role|aria-label)="[^"]*"/g, '')
        .replace(/^(<svg\b[^>]*?)\s(?:width|height)="[^"]*"\s(?:width|height)="[^"]*"/, '$1')
        .replace(/\s+/g, ' ')
        .replaceAll('"', "'");
      v = `data:image/svg+xml,${svg.replace(/[%#]/g, (ch) => encodeURIComponent(ch))}`;
    } catch {
      v = null;
    }
    icons.set(file, v);
  }
  return v;
}

/** A checkout's price: decimal text in its currency. */
export interface PickerPrice {
  amount: string;
  currency: FiatCode;
}

/**
 * The picker's list: assets payable in the merchant's mode with their minimum (asset units, USD, and with a price
 * in its currency). With a price, `payable` says whether it meets the minimum, decided here with exact decimals
 * (the minimum's worth in the price's currency, rounded half-up to its minor units) rather than in the browser.
 */
export async function pickerCurrencies(deps: ApiDeps, mode: Mode, price: PickerPrice | null) {
  const digits = price ? minorUnits(price.currency) : 2;
  const priceMinor = price === null ? null : roundHalfUp(price.amount, digits);
  const out = [];
  for (const a of enabledAssets(deps.catalog.list(), deps.chains, mode)) {
    let min: ReturnType<typeof minimumAmount>;
    let minPrice: string;
    try {
      min = minimumAmount(a, (await deps.rates[mode].usdRate(a)).rate);
      minPrice =
        !price || price.currency === 'USD'
          ? min.minUsd
          : unitsValue(a, min.minUnits, price.currency, (await deps.rates[mode].rate(a, price.currency)).rate);
    } catch {
      continue; // no fresh price: not payable now
    }
    const minPriceMinor = roundHalfUp(minPrice, digits) ?? 0n;
    out.push({
      code: a.code,
      name: a.name,
      network: a.network,
      // As people name them (core/catalog/asset-label.ts): the popup prints these, never the codes.
      ticker: assetTicker(a.code),
      network_name: networkName(a.network),
      icon_url: `/icons/${a.logoFile}`,
      icon: iconDataUrl(a.logoFile),
      network_precision: a.decimals,
      extra_id_exists: a.extraIdExists,
      min_amount: fromUnits(min.minUnits, a.decimals),
      min_usd: min.minUsd,
      min_price: minPrice,
      payable: priceMinor === null ? true : priceMinor >= minPriceMinor,
    });
  }
  return out;
}

/**
 * The list as the popup's picker uses it (in POST /sessions and GET /sessions/{token}/currencies): what it shows
 * and nothing else, as it counts against the 15 KB to the QR. The icon is inline, or its URL when there is none;
 * the minimum in USD only where the price does not reach it.
 */
export async function sessionPickerCurrencies(deps: ApiDeps, mode: Mode, price: PickerPrice) {
  return (await pickerCurrencies(deps, mode, price)).map((c) => ({
    code: c.code,
    name: c.name,
    network: c.network,
    ticker: c.ticker,
    network_name: c.network_name,
    ...(c.icon === null ? { icon_url: c.icon_url } : { icon: c.icon }),
    payable: c.payable,
    // Shown only under an asset the price does not reach.
    ...(c.payable ? {} : { min_usd: c.min_usd, min_price: c.min_price }),
  }));
}

/**
 * GET /currencies (dk_ key): the list for merchants who draw their own picker (every field); GET
 * /sessions/{token}/currencies: the same list for one checkout, with `payable` for its price. One file: one list.
 */
export function registerCurrencies(app: Hono<DropinEnv>, deps: ApiDeps) {
  app.get('/currencies', async (c) => ok(c, await pickerCurrencies(deps, c.get('merchant').mode, null)));
  app.get('/sessions/:token/currencies', async (c) => {
    const x = c.get('checkout');
    const { amount, currency } = checkoutView(x);
    // Sessions before migration 0019 were all USD.
    return ok(
      c,
      await sessionPickerCurrencies(deps, x.merchant.mode, { amount, currency: fiatCode(currency) ?? 'USD' }),
    );
  });
}
