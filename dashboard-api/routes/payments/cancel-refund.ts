import type { Hono } from 'hono';
import { refuseBody } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { idParam } from '../../../api-kit/path-params.js';
import { cancelRefund } from '../../../core/refunds/cancel-refund.js';
import { explorerOf } from '../../../core/refunds/refund.js';
import { refundViews } from '../../../core/refunds/views.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';

/** POST /merchants/{id}/refunds/{refund_id}/cancel (owner): cancels a refund not yet sent, audited. */
export function registerDashCancelRefund(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/refunds/:refund_id/cancel', async (c) => {
    const id = idParam(c, 'refund_id', 'Refund');
    await refuseBody(c);
    const refund = await audited(
      x,
      c,
      async (trx) => {
        const r = await cancelRefund(trx, x.deps.clock, (v) => explorerOf(x.deps.chains, v), c.get('merchant').id, id);
        if (!r.ok) throw r.error;
        return r.value;
      },
      (r) => ({ action: 'refund.cancel', target: r.id, details: { payment_id: r.payment_id } }),
    );
    x.deps.webhooks.wake();
    const [view] = await refundViews(x.deps.db, x.deps.chains, x.deps.catalog, [refund]);
    return ok(c, view, 'Refund cancelled');
  });
}
