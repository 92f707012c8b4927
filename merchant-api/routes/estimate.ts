import { z } from 'zod';
import { readQuery } from '../../api-kit/body.js';
import { ok } from '../../api-kit/envelope.js';
import { currencyCodeSchema, priceCurrencySchema, usdAmountTextSchema } from '../../api-kit/schemas.js';
import { AppError } from '../../core/errors.js';
import { Decimal, divCeil, parseDecimal } from '../../core/money/decimal.js';
import { minorUnits } from '../../core/money/fiat.js';
import { merchantCurrency, payableAsset } from '../../core/payments/create-payment.js';
import { estimate, priceMinor, priceText } from '../../core/pricing/amounts.js';
import { pricingErrors } from '../openapi/operation.js';
import { estimateSchema } from '../openapi/responses.js';
import type { MerchantRoute } from '../route.js';

export const estimateQuerySchema = z.strictObject({
  amount: usdAmountTextSchema,
  currency: currencyCodeSchema,
  /** The price's currency (answered lower case as the API contract writes `usd`). @default the merchant's default currency */
  currency_from: priceCurrencySchema.optional(),
});

/**
 * GET /estimate (API §4.5): the amount a payment of `amount` (in `currency_from`) would ask for, by the same rule as
 * POST /payments. `rate` is the price of one unit in that currency; `fee` the typical network fee the sender pays on top (non-custodial).
 */
export const estimateRoute: MerchantRoute = {
  method: 'get',
  path: '/estimate',
  operationId: 'estimate',
  summary: 'Estimate the crypto amount of a price',
  description:
    "`amount` is text in `currency_from` (default: the merchant's default currency, USD unless set; greater than 0, at most 10,000,000, rounded half-up to the currency's minor units), priced by the same rule as POST /payments. `rate` is the price of one unit in that currency; `fee` the typical network fee the sender pays on top.",
  tag: 'Pricing',
  query: estimateQuerySchema,
  success: { status: 200, description: 'The amount a payment would ask for', data: estimateSchema },
  errors: pricingErrors,
  handler: (deps) => async (c) => {
    const q = readQuery(c, estimateQuerySchema);
    const mode = c.get('merchant').mode;
    const asset = payableAsset(deps, mode, q.currency);
    const currency = q.currency_from ?? merchantCurrency(c.get('merchant'));
    const minor = priceMinor(q.amount, currency);
    const { rate } = await deps.rates[mode].rate(asset, currency);
    const { units } = estimate(asset, rate, q.amount, currency);
    const r = parseDecimal(rate);
    if (!r) throw new AppError('INTERNAL', 'bad rate');
    // Before the 15-significant-digit cut: the exact quotient, rounded up to the asset's base unit.
    const unit = 10n ** BigInt(minorUnits(currency));
    const rawUnits = divCeil(minor * 10n ** BigInt(r.scale + asset.decimals), unit * r.int);
    const from = currency.toLowerCase();
    return ok(c, {
      amount: new Decimal(priceText(minor, currency)),
      currency_from: from,
      currency_to: asset.code.toLowerCase(),
      estimated_amount: Decimal.units(units, asset.decimals),
      rate: new Decimal(rate),
      fee: new Decimal(asset.networkFee),
      raw: {
        currency_from: from,
        amount_from: new Decimal(priceText(minor, currency)),
        currency_to: asset.code.toLowerCase(),
        estimated_amount: Decimal.units(rawUnits, asset.decimals),
      },
    });
  },
};
