import type { Hono } from 'hono';
import { ok } from '../../../api-kit/envelope.js';
import { iso } from '../../../core/clock.js';
import { type BalanceEntry, balances } from '../../../core/payments/balances.js';
import { merchantCurrency } from '../../../core/payments/create-payment.js';
import type { DashCtx, DashEnv } from '../../context.js';

/**
 * GET /merchants/{id}/balances: per asset, confirmed and pending amounts with their USD values (and in `fiat`, the
 * merchant's default currency when it is not USD), derived from
 * deposits exactly as GET /api/v1/balances (docs/architecture.md): what reached the merchant's own addresses.
 */
export function registerBalances(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/balances', async (c) => {
    const m = c.get('merchant');
    // The API's USD values, and the merchant's own currency beside them when it is another.
    const list = await balances(x.deps, m.id, m.mode, merchantCurrency(m));
    return ok(c, list.map(balanceView));
  });
}

export function balanceView(b: BalanceEntry) {
  return {
    currency: b.currency,
    amount: b.amount,
    pending_amount: b.pendingAmount,
    usd_amount: b.usdAmount,
    pending_usd_amount: b.pendingUsdAmount,
    fiat: b.inCurrency
      ? { currency: b.inCurrency.currency, amount: b.inCurrency.amount, pending_amount: b.inCurrency.pendingAmount }
      : null,
    updated_at: iso(b.updatedAt),
  };
}
export type Balance = ReturnType<typeof balanceView>;
