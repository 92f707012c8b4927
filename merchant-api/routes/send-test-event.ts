import { refuseBody } from '../../api-kit/body.js';
import { ok } from '../../api-kit/envelope.js';
import { deliveryView } from '../../core/webhooks/delivery-view.js';
import { sendTestEvent } from '../../core/webhooks/test-event.js';
import { deliverySchema } from '../openapi/responses.js';
import type { MerchantRoute } from '../route.js';

/** POST /webhook-deliveries/test (202): a signed test event to the merchant's endpoint, to check a receiver. */
export const sendTestEventRoute: MerchantRoute = {
  method: 'post',
  path: '/webhook-deliveries/test',
  operationId: 'sendTestWebhook',
  summary: 'Queue a signed test event',
  description: '400 when the merchant has no webhook URL. The route takes no request body.',
  tag: 'Webhooks',
  success: { status: 202, description: 'Test event queued', data: deliverySchema },
  errors: [400, 413],
  handler: (deps) => async (c) => {
    await refuseBody(c);
    const d = await sendTestEvent(deps.db, c.get('merchant').id, deps.clock.now());
    deps.webhooks.wake();
    return ok(c, deliveryView(d, []), 'Test event queued', 202);
  },
};
