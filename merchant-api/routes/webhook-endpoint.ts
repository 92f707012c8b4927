import type { Hono } from 'hono';
import { refuseBody } from '../../api-kit/body.js';
import type { ApiDeps } from '../../api-kit/deps.js';
import { ok } from '../../api-kit/envelope.js';
import { getMerchant, type Merchant } from '../../core/merchants/merchants.js';
import { enableEndpoint } from '../../core/webhooks/deliveries.js';
import type { MerchantEnv } from '../auth.js';
import type { Operation } from '../openapi/operation.js';
import { webhookEndpointSchema } from '../openapi/responses.js';

function endpointView(m: Merchant, enabled = m.webhook_enabled === 1) {
  return { url: m.webhook_url, enabled, mode: m.mode };
}

/**
 * GET /webhook-endpoint: the merchant's endpoint and whether it is enabled; POST /webhook-endpoint/enable turns it on
 * again after a 410 disabled it, and the deliveries held meanwhile go out at once. One file: they are one resource.
 */
export function registerWebhookEndpoint(app: Hono<MerchantEnv>, deps: ApiDeps): void {
  // Read now, not from the request's (cached) merchant: a 410 may have disabled the endpoint a moment ago.
  app.get('/webhook-endpoint', async (c) =>
    ok(c, endpointView((await getMerchant(deps.db, c.get('merchant').id)) ?? c.get('merchant'))),
  );
  app.post('/webhook-endpoint/enable', async (c) => {
    await refuseBody(c);
    const m = c.get('merchant');
    await enableEndpoint(deps.db, m.id, deps.clock.now());
    deps.webhooks.wake();
    return ok(c, endpointView(m, true), 'Webhook endpoint enabled; held deliveries go out now');
  });
}

export const getWebhookEndpointOperation: Operation = {
  method: 'get',
  path: '/webhook-endpoint',
  operationId: 'getWebhookEndpoint',
  summary: 'The webhook endpoint and whether it is enabled',
  description: 'An endpoint answering 410 is disabled; its deliveries are held until it is enabled again.',
  tag: 'Webhooks',
  success: { status: 200, description: 'The endpoint', data: webhookEndpointSchema },
  errors: [],
};

export const enableWebhookEndpointOperation: Operation = {
  method: 'post',
  path: '/webhook-endpoint/enable',
  operationId: 'enableWebhookEndpoint',
  summary: 'Re-enable the endpoint after a 410',
  description: 'The deliveries held while it was disabled go out at once. The route takes no request body.',
  tag: 'Webhooks',
  success: { status: 200, description: 'Enabled; held deliveries go out now', data: webhookEndpointSchema },
  errors: [413],
};
