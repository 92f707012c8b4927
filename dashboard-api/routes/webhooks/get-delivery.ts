import type { Hono } from 'hono';
import { ok } from '../../../api-kit/envelope.js';
import { idParam } from '../../../api-kit/path-params.js';
import { notFound } from '../../../core/errors.js';
import { attemptsOf, getDelivery } from '../../../core/webhooks/deliveries.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { dashDeliveryView } from '../../views.js';

/** GET /merchants/{id}/webhook-deliveries/{delivery_id}: one delivery with every attempt. */
export function registerGetDelivery(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/webhook-deliveries/:delivery_id', async (c) => {
    const d = await getDelivery(x.deps.db, c.get('merchant').id, idParam(c, 'delivery_id', 'Webhook delivery'));
    if (!d) throw notFound('Webhook delivery');
    return ok(c, dashDeliveryView(d, await attemptsOf(x.deps.db, d.id)));
  });
}
