import type { Hono } from 'hono';
import { z } from 'zod';
import { readQuery } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { idParam } from '../../../api-kit/path-params.js';
import { invalid, notFound } from '../../../core/errors.js';
import type { Merchant } from '../../../core/merchants/merchants.js';
import { fromUnits, roundHalfUp } from '../../../core/money/decimal.js';
import { minorUnits } from '../../../core/money/fiat.js';
import { merchantCurrency } from '../../../core/payments/create-payment.js';
import { findPosPayment, listPosSales } from '../../../core/pos/store.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { paymentRowView } from '../../views.js';

/** How far back "today" may start: a local midnight is at most a day ago, plus an hour of daylight-saving slack. */
const DAY_MS = 25 * 3_600_000;
const MAX_SALES = 500;

export const posSalesQuerySchema = z.strictObject({
  from: z.iso
    .datetime({ offset: true, error: 'Must be an ISO 8601 time with a UTC offset (the start of your day)' })
    .transform((v) => Date.parse(v)),
});

/**
 * GET /merchants/{id}/pos/sales?from=... : the point of sale's payments since the start of the seller's day (their own
 * midnight, so the list is their "today" in their time zone), with who took each and the day's paid total. A cashier
 * sees today only: `from` more than a day ago is refused. GET /merchants/{id}/pos/payments/{payment_id}: one of those
 * payments' true status, which the screen reads again after a network drop.
 */
export function registerPosSales(app: Hono<DashEnv>, x: DashCtx): void {
  const since = (from: number) => {
    if (from < x.deps.clock.now() - DAY_MS) throw invalid('from', "The point of sale shows today's sales only");
    return from;
  };
  app.get('/merchants/:merchant_id/pos/sales', async (c) => {
    const from = since(readQuery(c, posSalesQuerySchema).from);
    return ok(c, salesView(await listPosSales(x.deps.db, c.get('merchant').id, from, MAX_SALES), c.get('merchant')));
  });
  app.get('/merchants/:merchant_id/pos/payments/:payment_id', async (c) => {
    const id = idParam(c, 'payment_id', 'Payment');
    const p = await findPosPayment(x.deps.db, c.get('merchant').id, id, x.deps.clock.now() - DAY_MS);
    if (!p) throw notFound('Payment');
    return ok(c, { payment: paymentRowView(p) });
  });
}

/** The day's sales and what was paid, in the merchant's currency. */
function salesView(rows: Awaited<ReturnType<typeof listPosSales>>, merchant: Merchant) {
  const paid = rows.filter((r) => r.status === 'finished');
  // The counter sells in the merchant's currency; the total is summed in its minor units, exactly.
  const currency = merchantCurrency(merchant);
  const digits = minorUnits(currency);
  const minor = paid
    .filter((r) => r.price_currency === currency)
    .reduce((sum, r) => sum + (roundHalfUp(r.price_amount, digits) ?? 0n), 0n);
  return {
    sales: rows.map((r) => ({ ...paymentRowView(r), tip_amount: r.tip_amount, cashier: r.cashier_email })),
    paid_count: paid.length,
    paid_amount: fromUnits(minor, digits),
    price_currency: currency,
  };
}
export type Sales = ReturnType<typeof salesView>;
