import type { Hono } from 'hono';
import { ok } from '../../api-kit/envelope.js';
import { iso } from '../../core/clock.js';
import { balances } from '../../core/payments/balances.js';
import type { DashCtx, DashEnv } from '../context.js';

/**
 * GET /merchants/{id}/balances: per asset, confirmed and pending amounts with their USD values, derived from
 * deposits exactly as GET /api/v1/balances (DESIGN.md): what reached the merchant's own addresses.
 */
export function registerBalances(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/balances', async (c) => {
    const m = c.get('merchant');
    const list = await balances(x.deps, m.id, m.mode);
    return ok(
      c,
      list.map((b) => ({
        currency: b.currency,
        amount: b.amount,
        pending_amount: b.pendingAmount,
        usd_amount: b.usdAmount,
        pending_usd_amount: b.pendingUsdAmount,
        updated_at: iso(b.updatedAt),
      })),
    );
  });
}
