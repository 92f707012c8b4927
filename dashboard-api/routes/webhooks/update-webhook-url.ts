import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { invalid } from '../../../core/errors.js';
import { getMerchant, type Merchant, updateMerchant } from '../../../core/merchants/merchants.js';
import { webhookUrlProblem } from '../../../core/webhooks/address-guard.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { endpointView } from './webhook-endpoint.js';

export const webhookUrlSchema = z.strictObject({
  url: z
    .url({ protocol: /^https?$/, error: 'Must be an absolute http(s) URL' })
    .max(2048)
    .nullable(),
});

/**
 * PUT /merchants/{id}/webhook-endpoint (owner): sets the URL (null removes it) under the admin CLI's rules: live
 * mode https to public addresses only, checked now and again at every connect (core/webhooks/address-guard.ts).
 */
export function registerUpdateWebhookUrl(app: Hono<DashEnv>, x: DashCtx): void {
  app.put('/merchants/:merchant_id/webhook-endpoint', async (c) => {
    const m = c.get('merchant');
    const { data } = await readJson(c, webhookUrlSchema, x.deps.limits.bodyBytes);
    if (data.url !== null) {
      const problem = await webhookUrlProblem(data.url, m.mode);
      if (problem) throw invalid('url', problem);
    }
    await audited(
      x,
      c,
      (trx) => updateMerchant(trx, x.deps.clock, m.id, { webhookUrl: data.url }),
      () => ({ action: 'webhook.url', details: { url: data.url } }),
    );
    return ok(c, endpointView((await getMerchant(x.deps.db, m.id)) as Merchant), 'Webhook URL saved');
  });
}
