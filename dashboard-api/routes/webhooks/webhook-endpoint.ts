import type { Hono } from 'hono';
import { ok } from '../../../api-kit/envelope.js';
import type { Merchant } from '../../../core/merchants/merchants.js';
import type { DashCtx, DashEnv } from '../../context.js';

/** The merchant's webhook endpoint as the dashboard shows it (never its secret). */
export function endpointView(m: Merchant) {
  return { url: m.webhook_url, enabled: m.webhook_enabled === 1, mode: m.mode };
}

/** GET /merchants/{id}/webhook-endpoint: URL and whether it is enabled (a 410 from it disables it). */
export function registerWebhookEndpoint(app: Hono<DashEnv>, _x: DashCtx): void {
  app.get('/merchants/:merchant_id/webhook-endpoint', (c) => ok(c, endpointView(c.get('merchant'))));
}
export type Endpoint = ReturnType<typeof endpointView>;
