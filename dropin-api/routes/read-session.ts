import type { Context } from 'hono';
import type { ApiDeps } from '../../api-kit/deps.js';
import { ok } from '../../api-kit/envelope.js';
import type { DropinEnv } from '../context.js';
import { checkoutPaymentView, checkoutView, currentPayment } from '../views.js';

/** GET /sessions/{token}: the checkout and its current payment; also the polling fallback of the live stream. */
export function readSessionHandler(deps: ApiDeps) {
  return async (c: Context<DropinEnv>) => {
    const x = c.get('checkout');
    const p = await currentPayment(deps, x);
    return ok(c, { session: checkoutView(x), payment: p ? await checkoutPaymentView(deps, p) : null });
  };
}
