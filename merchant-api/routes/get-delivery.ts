import { ok } from '../../api-kit/envelope.js';
import { idParam } from '../../api-kit/path-params.js';
import { notFound } from '../../core/errors.js';
import { attemptsOf, getDelivery } from '../../core/webhooks/deliveries.js';
import { deliveryView } from '../../core/webhooks/delivery-view.js';
import { deliverySchema } from '../openapi/responses.js';
import type { MerchantRoute } from '../route.js';

/** GET /webhook-deliveries/{delivery_id}: one delivery with every attempt. */
export const getDeliveryRoute: MerchantRoute = {
  method: 'get',
  path: '/webhook-deliveries/{delivery_id}',
  operationId: 'getWebhookDelivery',
  summary: 'One webhook delivery with every attempt',
  description: "Every attempt with its status code, error and time; another merchant's delivery is a 404.",
  tag: 'Webhooks',
  pathParams: { delivery_id: { description: 'Delivery id', example: 'dlv_3kD9sQ1w' } },
  success: { status: 200, description: 'The delivery', data: deliverySchema },
  errors: [404],
  handler: (deps) => async (c) => {
    const d = await getDelivery(deps.db, c.get('merchant').id, idParam(c, 'delivery_id', 'Webhook delivery'));
    if (!d) throw notFound('Webhook delivery');
    return ok(c, deliveryView(d, await attemptsOf(deps.db, d.id)));
  },
};
