import { refuseBody } from '../../api-kit/body.js';
import { ok } from '../../api-kit/envelope.js';
import { getMerchant, type Merchant } from '../../core/merchants/merchants.js';
import { enableEndpoint } from '../../core/webhooks/deliveries.js';
import { webhookEndpointSchema } from '../openapi/responses.js';
import type { MerchantRoute } from '../route.js';

function endpointView(m: Merchant, enabled = m.webhook_enabled === 1) {
  return { url: m.webhook_url, enabled, mode: m.mode };
}

/**
 * GET /webhook-endpoint: the merchant's endpoint and whether it is enabled; POST /webhook-endpoint/enable turns it on
 * again after a 410 disabled it, and the deliveries held meanwhile go out at once. One file: they are one resource.
 */
export const getWebhookEndpointRoute: MerchantRoute = {
  method: 'get',
  path: '/webhook-endpoint',
  operationId: 'getWebhookEndpoint',
  summary: 'The webhook endpoint and whether it is enabled',
  description: 'An endpoint answering 410 is disabled; its deliveries are held until it is enabled again.',
  tag: 'Webhooks',
  success: { status: 200, description: 'The endpoint', data: webhookEndpointSchema },
  errors: [],
  // Read now, not from the request's (cached) merchant: a 410 may have disabled the endpoint a moment ago.
  handler: (deps) => async (c) =>
    ok(c, endpointView((await getMerchant(deps.db, c.get('merchant').id)) ?? c.get('merchant'))),
};

export const enableWebhookEndpointRoute: MerchantRoute = {
  method: 'post',
  path: '/webhook-endpoint/enable',
  operationId: 'enableWebhookEndpoint',
  summary: 'Re-enable the endpoint after a 410',
  description: 'The deliveries held while it was disabled go out at once. The route takes no request body.',
  tag: 'Webhooks',
  success: { status: 200, description: 'Enabled; held deliveries go out now', data: webhookEndpointSchema },
  errors: [413],
  handler: (deps) => async (c) => {
    await refuseBody(c);
    const m = c.get('merchant');
    await enableEndpoint(deps.db, m.id, deps.clock.now());
    deps.webhooks.wake();
    return ok(c, endpointView(m, true), 'Webhook endpoint enabled; held deliveries go out now');
  },
};
