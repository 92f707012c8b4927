import type { Hono } from 'hono';
import { z } from 'zod';
import { readQuery } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { deliveryStatuses, listDeliveries } from '../../../core/webhooks/deliveries.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { dashDeliveryView } from '../../views.js';

export const listDeliveriesQuerySchema = z.strictObject({
  status: z.enum(deliveryStatuses).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(300).optional(),
});

/** GET /merchants/{id}/webhook-deliveries: the delivery log, filtered by status, each with every attempt. */
export function registerListDeliveries(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/webhook-deliveries', async (c) => {
    const q = readQuery(c, listDeliveriesQuerySchema);
    const page = await listDeliveries(x.deps.db, c.get('merchant').id, {
      status: q.status,
      limit: q.limit,
      cursor: q.cursor,
    });
    return ok(c, {
      deliveries: page.deliveries.map((d) => dashDeliveryView(d, d.attempt_log)),
      next_cursor: page.nextCursor,
    });
  });
}
