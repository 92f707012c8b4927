import type { Hono } from 'hono';
import { ok } from '../../../api-kit/envelope.js';
import { getMerchant, type Merchant } from '../../../core/merchants/merchants.js';
import { enableEndpoint } from '../../../core/webhooks/deliveries.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { endpointView } from './webhook-endpoint.js';

/** POST /merchants/{id}/webhook-endpoint/enable (owner): on again after a 410; held deliveries go out at once. */
export function registerEnableWebhookEndpoint(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/webhook-endpoint/enable', async (c) => {
    const id = c.get('merchant').id;
    await audited(
      x,
      c,
      (trx) => enableEndpoint(trx, id, x.deps.clock.now()),
      () => ({ action: 'webhook.enable' }),
    );
    x.deps.webhooks.wake();
    return ok(c, endpointView((await getMerchant(x.deps.db, id)) as Merchant), 'Webhook endpoint enabled');
  });
}
