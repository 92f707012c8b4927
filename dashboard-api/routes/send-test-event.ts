import type { Hono } from 'hono';
import { ok } from '../../api-kit/envelope.js';
import { sendTestEvent } from '../../core/webhooks/test-event.js';
import type { DashCtx, DashEnv } from '../context.js';
import { dashDeliveryView } from '../views.js';

/** POST /merchants/{id}/webhook-deliveries/test (owner): a signed test event; the page follows its delivery. */
export function registerSendTestEvent(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/webhook-deliveries/test', async (c) => {
    const d = await sendTestEvent(x.deps.db, c.get('merchant').id, x.deps.clock.now());
    x.deps.webhooks.wake();
    return ok(c, dashDeliveryView(d, []), 'Test event queued', 202);
  });
}
