import type { Hono } from 'hono';
import { z } from 'zod';
import { readQuery } from '../../api-kit/body.js';
import type { ApiDeps } from '../../api-kit/deps.js';
import { ok } from '../../api-kit/envelope.js';
import { currencyCodeSchema, usdAmountTextSchema } from '../../api-kit/schemas.js';
import { AppError } from '../../core/errors.js';
import { Decimal, divCeil, fromUnits, parseDecimal } from '../../core/money/decimal.js';
import { payableAsset } from '../../core/payments/create-payment.js';
import { estimate, priceCents } from '../../core/pricing/amounts.js';
import type { MerchantEnv } from '../auth.js';
import type { Operation } from '../openapi/operation.js';
import { pricingErrors } from '../openapi/operation.js';
import { estimateSchema } from '../openapi/responses.js';

export const estimateQuerySchema = z.strictObject({
  amount: usdAmountTextSchema,
  currency: currencyCodeSchema,
});

/**
 * GET /estimate (spec 4.5): the amount a payment of `amount` USD would ask for, by the same rule as POST /payments.
 * `rate` is the USD price of one unit; `fee` the typical network fee the sender pays on top (non-custodial).
 */
export function registerEstimate(app: Hono<MerchantEnv>, deps: ApiDeps): void {
  app.get('/estimate', async (c) => {
    const q = readQuery(c, estimateQuerySchema);
    const mode = c.get('merchant').mode;
    const asset = payableAsset(deps, mode, q.currency);
    const cents = priceCents(q.amount);
    const { rate } = await deps.rates[mode].usdRate(asset);
    const { units } = estimate(asset, rate, q.amount);
    const r = parseDecimal(rate);
    if (!r) throw new AppError('INTERNAL', 'bad rate');
    // Before the 15-significant-digit cut: the exact quotient, rounded up to the asset's base unit.
    const rawUnits = divCeil(cents * 10n ** BigInt(r.scale + asset.decimals), 100n * r.int);
    return ok(c, {
      amount: new Decimal(fromUnits(cents, 2)),
      currency_from: 'usd',
      currency_to: asset.code.toLowerCase(),
      estimated_amount: Decimal.units(units, asset.decimals),
      rate: new Decimal(rate),
      fee: new Decimal(asset.networkFee),
      raw: {
        currency_from: 'usd',
        amount_from: new Decimal(fromUnits(cents, 2)),
        currency_to: asset.code.toLowerCase(),
        estimated_amount: Decimal.units(rawUnits, asset.decimals),
      },
    });
  });
}

export const estimateOperation: Operation = {
  method: 'get',
  path: '/estimate',
  operationId: 'estimate',
  summary: 'Estimate the crypto amount of a USD price',
  description:
    '`amount` is USD text (greater than 0, at most 10,000,000, rounded half-up to cents), priced by the same rule as POST /payments. `rate` is the USD price of one unit; `fee` the typical network fee the sender pays on top.',
  tag: 'Pricing',
  query: estimateQuerySchema,
  success: { status: 200, description: 'The amount a payment would ask for', data: estimateSchema },
  errors: pricingErrors,
};
