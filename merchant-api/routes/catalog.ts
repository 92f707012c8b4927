import type { Context } from 'hono';
import { z } from 'zod';
import { readQuery } from '../../api-kit/body.js';
import type { ApiDeps } from '../../api-kit/deps.js';
import { ok } from '../../api-kit/envelope.js';
import { enabledAssets } from '../../core/catalog/availability.js';
import type { Asset } from '../../core/catalog/types.js';
import { iso } from '../../core/clock.js';
import { AppError, invalid } from '../../core/errors.js';
import { Decimal, divCeil, fromUnits, parseDecimal, usdToAssetUnits, usdToCents } from '../../core/money/decimal.js';
import { payableAsset } from '../../core/payments/create-payment.js';
import { minimumAmount } from '../../core/pricing/amounts.js';
import type { MerchantEnv } from '../auth.js';
import { currencyCodeSchema } from '../schemas.js';

/** Catalog timestamps: when this catalog version shipped. */
const CATALOG_DATE = Date.UTC(2026, 10, 1);

async function rateOrNull(deps: ApiDeps, mode: 'test' | 'live', asset: Asset): Promise<string | null> {
  try {
    return (await deps.rates[mode].usdRate(asset)).rate;
  } catch {
    return null;
  }
}

/** GET /currencies (spec 4.2, 2.1): assets payable now: network watched and a fresh price at hand. */
export function listCurrenciesHandler(deps: ApiDeps) {
  return async (c: Context<MerchantEnv>) => {
    const mode = c.get('merchant').mode;
    const out = [];
    for (const a of enabledAssets(deps.catalog.list(), deps.chains, mode)) {
      const rate = await rateOrNull(deps, mode, a);
      if (rate === null) continue;
      out.push({
        code_id: a.codeId,
        code: a.code,
        name: a.name,
        network: a.network,
        icon_url: `/icons/${a.logoFile}`,
        logo_file: a.logoFile,
        wallet_regex: a.walletRegex,
        priority: a.priority,
        extra_id_exists: a.extraIdExists,
        extra_id_regex: a.extraIdRegex,
        track: 1,
        cg_id: a.cgId,
        is_maxlimit: false,
        smart_contract: a.smartContract,
        network_precision: a.decimals,
        usd_rate: new Decimal(rate),
        enabled: true,
        created_at: iso(CATALOG_DATE),
        updated_at: iso(CATALOG_DATE),
      });
    }
    return ok(c, out);
  };
}

const booleanText = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const minimumAmountQuerySchema = z.strictObject({
  currency_from: currencyCodeSchema,
  currency_to: currencyCodeSchema,
  fiat_equivalent: z.string().regex(/^usd$/i, 'Only usd is supported').default('usd'),
  is_fixed_rate: booleanText.optional(),
  is_fee_paid_by_user: booleanText.optional(),
});

/**
 * GET /minimum-amount (spec 4.4). Funds go straight to the merchant (no conversion), so the minimum is that of
 * `currency_from`; `currency_to` must be a known asset or usd and is echoed.
 */
export function minimumAmountHandler(deps: ApiDeps) {
  return async (c: Context<MerchantEnv>) => {
    const q = readQuery(c, minimumAmountQuerySchema);
    const mode = c.get('merchant').mode;
    const asset = payableAsset(deps, mode, q.currency_from);
    if (!/^usd$/i.test(q.currency_to) && !deps.catalog.get(q.currency_to)) {
      throw invalid('currency_to', `Unknown currency "${q.currency_to}"`);
    }
    const { rate } = await deps.rates[mode].usdRate(asset);
    const min = minimumAmount(asset, rate);
    const r = parseDecimal(rate);
    if (!r) throw new AppError('INTERNAL', 'bad rate');
    return ok(c, {
      currency_from: q.currency_from.toLowerCase(),
      currency_to: q.currency_to.toLowerCase(),
      fiat_equivalent: q.fiat_equivalent.toLowerCase(),
      is_fixed_rate: q.is_fixed_rate ?? false,
      is_fee_paid_by_user: q.is_fee_paid_by_user ?? false,
      min_amount: Decimal.units(min.minUnits, asset.decimals),
      fiat_equivalent_amount: new Decimal(min.minUsd),
      raw: {
        min_amount: Decimal.units(min.minUnits, asset.decimals),
        // Exact USD value of the minimum, before rounding to cents.
        fiat_equivalent: new Decimal(fromUnits(min.minUnits * r.int, asset.decimals + r.scale)),
      },
    });
  };
}

export const estimateQuerySchema = z.strictObject({
  // Query text is kept as exact decimal text: it never passes through a float.
  amount: z
    .string({ error: 'Required: the USD amount to convert' })
    .regex(/^\d{1,9}(\.\d+)?$/, 'Must be a positive USD amount such as 19.99'),
  currency: currencyCodeSchema,
});

/**
 * GET /estimate (spec 4.5): the amount a payment of `amount` USD would ask for, by the same rule as POST /payments.
 * `rate` is the USD price of one unit; `fee` the typical network fee the sender pays on top (non-custodial).
 */
export function estimateHandler(deps: ApiDeps) {
  return async (c: Context<MerchantEnv>) => {
    const q = readQuery(c, estimateQuerySchema);
    const mode = c.get('merchant').mode;
    const asset = payableAsset(deps, mode, q.currency);
    const cents = usdToCents(q.amount);
    if (cents === null || cents <= 0n) throw invalid('amount', 'Must be at least 0.01 USD');
    const { rate } = await deps.rates[mode].usdRate(asset);
    const units = usdToAssetUnits(cents, rate, asset.decimals);
    const r = parseDecimal(rate);
    if (!r) throw new AppError('INTERNAL', 'bad rate');
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
  };
}
