import { refuseBody } from '../../api-kit/body.js';
import { ok } from '../../api-kit/envelope.js';
import { idParam } from '../../api-kit/path-params.js';
import { notFound } from '../../core/errors.js';
import { attemptsOf, redeliver } from '../../core/webhooks/deliveries.js';
import { deliveryView } from '../../core/webhooks/delivery-view.js';
import { deliverySchema } from '../openapi/responses.js';
import type { MerchantRoute } from '../route.js';

/** POST /webhook-deliveries/{delivery_id}/redeliver (202): the same delivery id again, freshly signed, now. */
export const redeliverRoute: MerchantRoute = {
  method: 'post',
  path: '/webhook-deliveries/{delivery_id}/redeliver',
  operationId: 'redeliverWebhook',
  summary: 'Send a delivery again (same id, fresh signature)',
  description:
    'Queues the delivery again at once, with the same `X-Service-Delivery` id. The route takes no request body.',
  tag: 'Webhooks',
  pathParams: { delivery_id: { description: 'Delivery id', example: 'dlv_3kD9sQ1w' } },
  success: { status: 202, description: 'Redelivery queued', data: deliverySchema },
  errors: [404, 413],
  handler: (deps) => async (c) => {
    await refuseBody(c);
    const d = await redeliver(
      deps.db,
      c.get('merchant').id,
      idParam(c, 'delivery_id', 'Webhook delivery'),
      deps.clock.now(),
    );
    if (!d) throw notFound('Webhook delivery');
    deps.webhooks.wake();
    return ok(
      c,
      deliveryView(d, await attemptsOf(deps.db, d.id)),
      'Redelivery queued (same delivery id, fresh timestamp and signature)',
      202,
    );
  },
};
