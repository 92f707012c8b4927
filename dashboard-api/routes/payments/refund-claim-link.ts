import type { Hono } from 'hono';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { idParam } from '../../../api-kit/path-params.js';
import { claimLinkRequestSchema, claimRequest } from '../../../api-kit/refund-schemas.js';
import { newClaimLink } from '../../../core/refunds/confirm-address.js';
import { explorerOf } from '../../../core/refunds/refund.js';
import { refundViews } from '../../../core/refunds/views.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';

/**
 * POST /merchants/{id}/refunds/{refund_id}/claim-link (owner): the merchant API's new claim link, audited (never the
 * link itself: only its expiry). The answer carries the link for the owner to copy, this once.
 */
export function registerDashRefundClaimLink(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/refunds/:refund_id/claim-link', async (c) => {
    const id = idParam(c, 'refund_id', 'Refund');
    const { data } = await readJson(c, claimLinkRequestSchema, x.deps.limits.bodyBytes);
    const made = await audited(
      x,
      c,
      async (trx) => {
        const r = await newClaimLink(
          trx,
          x.deps.clock,
          (v) => explorerOf(x.deps.chains, v),
          c.get('merchant').id,
          id,
          claimRequest(data, x.deps.settings.publicUrl),
        );
        if (!r.ok) throw r.error;
        return r.value;
      },
      (r) => ({
        action: 'refund.claim_link',
        target: r.refund.id,
        details: { payment_id: r.refund.payment_id, expires_at: r.claim.expires_at, emailed: r.claim.emailed },
      }),
    );
    x.deps.webhooks.wake();
    const [view] = await refundViews(x.deps.db, x.deps.chains, x.deps.catalog, [made.refund]);
    return ok(c, view && { ...view, claim_link: made.claim }, 'Claim link made', 201);
  });
}
