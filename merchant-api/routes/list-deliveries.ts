import { z } from 'zod';
import { readQuery } from '../../api-kit/body.js';
import { ok } from '../../api-kit/envelope.js';
import { deliveryStatuses, listDeliveries } from '../../core/webhooks/deliveries.js';
import { deliveryView } from '../../core/webhooks/delivery-view.js';
import { deliveryListSchema } from '../openapi/responses.js';
import type { MerchantRoute } from '../route.js';

export const listDeliveriesQuerySchema = z.strictObject({
  payment_id: z.string().min(1).max(100).optional(),
  status: z.enum(deliveryStatuses).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(300).optional(),
});

/**
 * GET /webhook-deliveries: the merchant's delivery log, filtered by payment and status, newest first in keyset
 * pages, each delivery with every attempt (response code, duration, error, response excerpt).
 */
export const listDeliveriesRoute: MerchantRoute = {
  method: 'get',
  path: '/webhook-deliveries',
  operationId: 'listWebhookDeliveries',
  summary: 'The webhook delivery log',
  description: 'Newest first in keyset pages: pass `next_cursor` as `cursor` for the next page.',
  tag: 'Webhooks',
  query: listDeliveriesQuerySchema,
  success: { status: 200, description: 'A page of deliveries', data: deliveryListSchema },
  errors: [422],
  handler: (deps) => async (c) => {
    const q = readQuery(c, listDeliveriesQuerySchema);
    const page = await listDeliveries(deps.db, c.get('merchant').id, {
      paymentId: q.payment_id,
      status: q.status,
      limit: q.limit,
      cursor: q.cursor,
    });
    return ok(c, {
      deliveries: page.deliveries.map((d) => deliveryView(d, d.attempt_log)),
      next_cursor: page.nextCursor,
    });
  },
};
