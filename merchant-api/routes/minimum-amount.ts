import { z } from 'zod';
import { readQuery } from '../../api-kit/body.js';
import { ok } from '../../api-kit/envelope.js';
import { currencyCodeSchema, priceCurrencySchema } from '../../api-kit/schemas.js';
import { AppError, invalid } from '../../core/errors.js';
import { Decimal, fromUnits, parseDecimal } from '../../core/money/decimal.js';
import { payableAsset } from '../../core/payments/create-payment.js';
import { minimumAmount, unitsValue } from '../../core/pricing/amounts.js';
import { pricingErrors } from '../openapi/operation.js';
import { minimumAmountSchema } from '../openapi/responses.js';
import type { MerchantRoute } from '../route.js';

const booleanText = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const minimumAmountQuerySchema = z.strictObject({
  currency_from: currencyCodeSchema,
  currency_to: currencyCodeSchema,
  /** The currency the minimum is also given in (API contract: default USD), any listed one, answered lower case. */
  fiat_equivalent: priceCurrencySchema.default('USD'),
  is_fixed_rate: booleanText.optional(),
  is_fee_paid_by_user: booleanText.optional(),
});

/**
 * GET /minimum-amount (API §4.4). Funds go straight to the merchant (no conversion), so the minimum is that of
 * `currency_from`; `currency_to` must be a known asset or usd and is echoed.
 */
export const minimumAmountRoute: MerchantRoute = {
  method: 'get',
  path: '/minimum-amount',
  operationId: 'minimumAmount',
  summary: 'Minimum payable amount of an asset',
  description:
    "The asset's USD minimum at the current rate, and never less than 10 typical network fees. `fiat_equivalent` (default usd; any currency POST /payments takes as `price_currency`) is the currency its worth is given in, rounded half-up to that currency's minor units.",
  tag: 'Pricing',
  query: minimumAmountQuerySchema,
  success: { status: 200, description: 'The minimum', data: minimumAmountSchema },
  errors: pricingErrors,
  handler: (deps) => async (c) => {
    const q = readQuery(c, minimumAmountQuerySchema);
    const mode = c.get('merchant').mode;
    const asset = payableAsset(deps, mode, q.currency_from);
    if (!/^usd$/i.test(q.currency_to) && !deps.catalog.get(q.currency_to)) {
      throw invalid('currency_to', `Unknown currency "${q.currency_to}"`);
    }
    const fiat = q.fiat_equivalent;
    const { rate: usdRate } = await deps.rates[mode].usdRate(asset);
    const min = minimumAmount(asset, usdRate);
    // The minimum is set in USD (catalog); its worth in another currency is at that currency's own rate.
    const rate = fiat === 'USD' ? usdRate : (await deps.rates[mode].rate(asset, fiat)).rate;
    const r = parseDecimal(rate);
    if (!r) throw new AppError('INTERNAL', 'bad rate');
    return ok(c, {
      currency_from: q.currency_from.toLowerCase(),
      currency_to: q.currency_to.toLowerCase(),
      fiat_equivalent: fiat.toLowerCase(),
      is_fixed_rate: q.is_fixed_rate ?? false,
      is_fee_paid_by_user: q.is_fee_paid_by_user ?? false,
      min_amount: Decimal.units(min.minUnits, asset.decimals),
      fiat_equivalent_amount: new Decimal(fiat === 'USD' ? min.minUsd : unitsValue(asset, min.minUnits, fiat, rate)),
      raw: {
        min_amount: Decimal.units(min.minUnits, asset.decimals),
        // Exact value of the minimum in that currency, before rounding to its minor units.
        fiat_equivalent: new Decimal(fromUnits(min.minUnits * r.int, asset.decimals + r.scale)),
      },
    });
  },
};
