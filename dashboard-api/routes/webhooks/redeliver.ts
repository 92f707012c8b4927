import type { Hono } from 'hono';
import { ok } from '../../../api-kit/envelope.js';
import { idParam } from '../../../api-kit/path-params.js';
import { notFound } from '../../../core/errors.js';
import { attemptsOf, redeliver } from '../../../core/webhooks/deliveries.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { dashDeliveryView } from '../../views.js';

/** POST /merchants/{id}/webhook-deliveries/{delivery_id}/redeliver (owner): same delivery id, fresh signature, now. */
export function registerRedeliver(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/webhook-deliveries/:delivery_id/redeliver', async (c) => {
    const id = idParam(c, 'delivery_id', 'Webhook delivery');
    const d = await audited(
      x,
      c,
      async (trx) => {
        const found = await redeliver(trx, c.get('merchant').id, id, x.deps.clock.now());
        if (!found) throw notFound('Webhook delivery');
        return found;
      },
      (found) => ({ action: 'webhook.redeliver', target: found.id }),
    );
    x.deps.webhooks.wake();
    return ok(c, dashDeliveryView(d, await attemptsOf(x.deps.db, d.id)), 'Redelivery queued', 202);
  });
}
