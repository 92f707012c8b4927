import type { Hono } from 'hono';
import { ok } from '../../api-kit/envelope.js';
import { idParam } from '../../api-kit/path-params.js';
import { markRefunded } from '../../core/payments/refund.js';
import type { DashCtx, DashEnv } from '../context.js';
import { paymentRowView } from '../views.js';

/**
 * POST /merchants/{id}/payments/{payment_id}/refund (owner): records that the merchant refunded a finished or
 * partially paid payment (the service never moves funds); a `payment.updated` webhook tells the receiver.
 */
export function registerRefundPayment(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/payments/:payment_id/refund', async (c) => {
    const id = idParam(c, 'payment_id', 'Payment');
    const p = await markRefunded(x.deps.db, x.deps.clock, id, c.get('merchant').id, x.deps.changes);
    return ok(c, paymentRowView(p), 'Payment marked refunded');
  });
}
