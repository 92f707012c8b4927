import type { Hono } from 'hono';
import { ok } from '../../api-kit/envelope.js';
import { deliveryView } from '../../core/webhooks/delivery-view.js';
import { sendTestEvent } from '../../core/webhooks/test-event.js';
import type { DashCtx, DashEnv } from '../context.js';

/** POST /merchants/{id}/webhook-deliveries/test (owner): a signed test event; the page follows its delivery. */
export function registerSendTestEvent(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/webhook-deliveries/test', async (c) => {
    const d = await sendTestEvent(x.deps.db, c.get('merchant').id, x.deps.clock.now());
    x.deps.webhooks.wake();
    return ok(c, deliveryView(d, []), 'Test event queued', 202);
  });
}
