import type { Hono } from 'hono';
import type { ApiDeps } from '../../api-kit/deps.js';
import { ok } from '../../api-kit/envelope.js';
import { currentPayment } from '../../core/checkout/checkout.js';
import type { DropinEnv } from '../context.js';
import { checkoutPaymentView, checkoutView } from '../views.js';

/** GET /sessions/{token}: the checkout and its current payment; also the polling fallback of the live stream. */
export function registerReadSession(app: Hono<DropinEnv>, deps: ApiDeps) {
  app.get('/sessions/:token', async (c) => {
    const x = c.get('checkout');
    const p = await currentPayment(deps, x);
    return ok(c, { session: checkoutView(x), payment: p ? await checkoutPaymentView(deps, p) : null });
  });
}
