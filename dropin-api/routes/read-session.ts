import type { Hono } from 'hono';
import type { ApiDeps } from '../../api-kit/deps.js';
import { ok } from '../../api-kit/envelope.js';
import { currentPayment } from '../../core/checkout/checkout.js';
import { customerChooses } from '../../core/checkout/customer-choice.js';
import type { DropinEnv } from '../context.js';
import { checkoutPaymentView, checkoutView } from '../views.js';

/**
 * GET /sessions/{token}: the checkout and its current payment; also the polling fallback of the live stream. A hosted
 * page the customer chooses the asset of says so (`session.customer_chooses_currency`).
 */
export function registerReadSession(app: Hono<DropinEnv>, deps: ApiDeps) {
  app.get('/sessions/:token', async (c) => {
    const x = c.get('checkout');
    const p = await currentPayment(deps, x);
    // A hosted page whose merchant left the asset to the customer offers the picker (widget/page.ts).
    const chooses = x.kind === 'hosted' && (await customerChooses(deps.db, x.payment.id));
    return ok(c, {
      session: { ...checkoutView(x), ...(chooses ? { customer_chooses_currency: true } : {}) },
      payment: p ? await checkoutPaymentView(deps, p) : null,
    });
  });
}
