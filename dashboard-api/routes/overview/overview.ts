import type { Hono } from 'hono';
import { z } from 'zod';
import { readQuery } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { offeredAssets } from '../../../core/catalog/availability.js';
import { iso } from '../../../core/clock.js';
import type { Merchant } from '../../../core/merchants/merchants.js';
import { fromUnits } from '../../../core/money/decimal.js';
import { centsText, merchantFigures, type PeriodFigures } from '../../../core/payments/figures.js';
import { refundedByAsset } from '../../../core/refunds/refunded-totals.js';
import type { DashCtx, DashEnv } from '../../context.js';

/** No parameters: an unknown one is a 422, like every dashboard query. */
export const overviewQuerySchema = z.strictObject({});

/**
 * GET /merchants/{id}/overview: the landing page's figures (core/payments/figures.ts): received per asset and sold
 * in USD for today, 7 and 30 days (UTC days, today included), payments by status, and the daily volume of the last
 * 30 days. Exact decimal strings. `prices` says whether the merchant's mode has fresh USD prices: while the live
 * source is stale, payments in `stale_assets` are refused (503), and the page says so instead of leaving the merchant
 * to find out from failed checkouts.
 */
export function registerOverview(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/overview', async (c) => {
    readQuery(c, overviewQuerySchema);
    return ok(c, await overviewView(x, c.get('merchant')));
  });
}

/** The merchant's prices state, its three periods' figures and its daily volume. */
async function overviewView(x: DashCtx, merchant: Merchant) {
  const mode = merchant.mode;
  const rates = x.deps.rates[mode].status();
  const staleIds = new Set(rates.stale_ids);
  const staleAssets = offeredAssets(x.deps.catalog.list(), x.deps.chains, mode)
    .filter((a) => staleIds.has(a.cgId))
    .map((a) => a.code);
  const f = await merchantFigures(x.deps.db, merchant.id, x.deps.clock.now());
  const perAsset = (m: Map<string, bigint>) =>
    [...m]
      .filter(([, units]) => units > 0n)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([asset, units]) => ({ asset, amount: fromUnits(units, x.deps.catalog.get(asset)?.decimals ?? 0) }));
  const refunded = await Promise.all(
    [f.periods.today, f.periods.days7, f.periods.days30].map((p) => refundedByAsset(x.deps.db, merchant.id, p.from)),
  );
  const period = (name: 'today' | '7d' | '30d', p: PeriodFigures, back: Map<string, bigint>) => ({
    period: name,
    from: iso(p.from),
    received: perAsset(p.received),
    // Returned by refunds seen on chain in the period, per asset (core/refunds/refunded-totals.ts).
    refunded: perAsset(back),
    sold_usd: centsText(p.soldCents),
    payments: p.payments,
    by_status: p.byStatus,
  });
  return {
    prices: {
      state: rates.state,
      updated_at: rates.updated_at,
      stale_since: rates.stale_since,
      stale_assets: staleAssets,
      last_error: rates.last_error,
    },
    periods: [
      period('today', f.periods.today, refunded[0] as Map<string, bigint>),
      period('7d', f.periods.days7, refunded[1] as Map<string, bigint>),
      period('30d', f.periods.days30, refunded[2] as Map<string, bigint>),
    ],
    daily: f.daily.map((d) => ({
      day: iso(d.day).slice(0, 10),
      sold_usd: centsText(d.soldCents),
      received_payments: d.received,
      payments: d.payments,
    })),
  };
}
export type Overview = Awaited<ReturnType<typeof overviewView>>;
