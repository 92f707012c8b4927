import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { invalid } from '../../../core/errors.js';
import { redeliverFailed } from '../../../core/webhooks/deliveries.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { rangeBoundSchema } from '../../params.js';

export const redeliverFailedSchema = z.strictObject({
  from: rangeBoundSchema(false),
  to: rangeBoundSchema(true),
});

/**
 * POST /merchants/{id}/webhook-deliveries/redeliver-failed (owner), body `{from, to}` (days or ISO times, the end
 * day included): every failed delivery created in the range goes again, same ids, fresh signatures, now. For the
 * day an endpoint was down.
 */
export function registerRedeliverFailed(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/webhook-deliveries/redeliver-failed', async (c) => {
    const { data } = await readJson(c, redeliverFailedSchema, x.deps.limits.bodyBytes);
    if (data.to <= data.from) throw invalid('to', 'Must be after `from`');
    const n = await audited(
      x,
      c,
      (trx) => redeliverFailed(trx, c.get('merchant').id, data, x.deps.clock.now()),
      (count) => ({
        action: 'webhook.redeliver_failed',
        details: { from: new Date(data.from).toISOString(), to: new Date(data.to).toISOString(), redelivered: count },
      }),
    );
    if (n > 0) x.deps.webhooks.wake();
    return ok(c, { redelivered: n }, `${n} failed deliver${n === 1 ? 'y' : 'ies'} queued again`, 202);
  });
}
