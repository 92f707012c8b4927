import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { idParam } from '../../../api-kit/path-params.js';
import { claimRequest, createRefundSchema } from '../../../api-kit/refund-schemas.js';
import { createRefund } from '../../../core/refunds/create-refund.js';
import { explorerOf } from '../../../core/refunds/refund.js';
import { refundViews } from '../../../core/refunds/views.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { requireFreshCode } from '../../fresh-code.js';

export const dashCreateRefundSchema = createRefundSchema.extend({
  /** A fresh two-factor code, required where the merchant requires two-factor of its members. */
  code: z.string().max(40).optional(),
});

/**
 * POST /merchants/{id}/payments/{payment_id}/refunds (owner): the merchant API's refund, audited in the same
 * transaction. Where the merchant requires two-factor, the owner confirms the refund with a fresh code (a TOTP code
 * not used before, or a recovery code): a signed-in session alone does not send money back.
 */
export function registerDashCreateRefund(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/payments/:payment_id/refunds', async (c) => {
    const paymentId = idParam(c, 'payment_id', 'Payment');
    const { data } = await readJson(c, dashCreateRefundSchema, x.deps.limits.bodyBytes);
    const merchant = c.get('merchant');
    const refund = await audited(
      x,
      c,
      async (trx) => {
        await requireFreshCode(x, c, trx, data.code, 'confirm a refund');
        const r = await createRefund(
          trx,
          x.deps.clock,
          x.deps.catalog,
          x.deps.chains,
          (v) => explorerOf(x.deps.chains, v),
          {
            merchantId: merchant.id,
            paymentId,
            amountUnits: data.amount_units === undefined ? undefined : BigInt(data.amount_units),
            address: data.address,
            reason: data.reason,
            claim: data.claim_link && claimRequest(data.claim_link, x.deps.settings.publicUrl),
          },
        );
        if (!r.ok) throw r.error;
        return r.value;
      },
      (r) => ({
        action: 'refund.create',
        target: r.id,
        details: {
          payment_id: r.payment_id,
          amount_units: r.amount_units,
          currency: r.asset,
          address: r.address,
          ...(r.claim ? { claim_link_expires_at: r.claim.expires_at, claim_link_emailed: r.claim.emailed } : {}),
        },
      }),
    );
    x.deps.webhooks.wake();
    const [view] = await refundViews(x.deps.db, x.deps.chains, x.deps.catalog, [refund]);
    return ok(c, view && { ...view, claim_link: refund.claim ?? null }, 'Refund created', 201);
  });
}
