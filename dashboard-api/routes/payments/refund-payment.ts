import type { Hono } from 'hono';
import { ok } from '../../../api-kit/envelope.js';
import { idParam } from '../../../api-kit/path-params.js';
import { markRefunded } from '../../../core/payments/refund.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { paymentRowView } from '../../views.js';

/**
 * POST /merchants/{id}/payments/{payment_id}/refund (owner): records that the merchant refunded a finished or
 * partially paid payment (the service never moves funds); a `payment.updated` webhook tells the receiver.
 */
export function registerRefundPayment(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/payments/:payment_id/refund', async (c) => {
    const id = idParam(c, 'payment_id', 'Payment');
    const p = await audited(
      x,
      c,
      (trx) => markRefunded(trx, x.deps.clock, id, c.get('merchant').id),
      () => ({ action: 'payment.refund', target: id }),
    );
    // Told to open pages once committed, with its audit entry.
    x.deps.changes.publish([{ kind: 'state', payment: p }]);
    return ok(c, paymentRowView(p), 'Payment marked refunded');
  });
}
