import type { Hono } from 'hono';
import { ok } from '../../../api-kit/envelope.js';
import { sendTestEvent } from '../../../core/webhooks/test-event.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { dashDeliveryView } from '../../views.js';

/** POST /merchants/{id}/webhook-deliveries/test (owner): a signed test event; the page follows its delivery. */
export function registerSendTestEvent(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/webhook-deliveries/test', async (c) => {
    const d = await audited(
      x,
      c,
      (trx) => sendTestEvent(trx, c.get('merchant').id, x.deps.clock.now()),
      (sent) => ({ action: 'webhook.test', target: sent.id }),
    );
    x.deps.webhooks.wake();
    return ok(c, dashDeliveryView(d, []), 'Test event queued', 202);
  });
}
