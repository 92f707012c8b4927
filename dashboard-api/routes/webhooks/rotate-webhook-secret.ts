import type { Hono } from 'hono';
import { ok } from '../../../api-kit/envelope.js';
import { generateWebhookSecret } from '../../../core/merchants/keys.js';
import { updateMerchant } from '../../../core/merchants/merchants.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';

/**
 * POST /merchants/{id}/webhook-endpoint/rotate-secret (owner): a new signing secret, applied at once and shown in
 * this answer only (the dashboard shows it on one screen, then never again).
 */
export function registerRotateWebhookSecret(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/webhook-endpoint/rotate-secret', async (c) => {
    const secret = generateWebhookSecret();
    // The entry says that it was rotated, never the secret.
    await audited(
      x,
      c,
      (trx) => updateMerchant(trx, x.deps.clock, c.get('merchant').id, { webhookSecret: secret }),
      () => ({ action: 'webhook.secret' }),
    );
    return ok(c, { webhook_secret: secret }, 'Webhook secret rotated: update your receiver now');
  });
}
