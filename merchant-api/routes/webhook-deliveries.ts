import type { Context } from 'hono';
import { z } from 'zod';
import { readQuery } from '../../api-kit/body.js';
import type { ApiDeps } from '../../api-kit/deps.js';
import { ok } from '../../api-kit/envelope.js';
import { route } from '../../api-kit/routes.js';
import { AppError, invalid } from '../../core/errors.js';
import {
  type Attempt,
  decodeCursor,
  deliveryStatuses,
  enableEndpoint,
  getDelivery,
  listDeliveries,
  redeliver,
} from '../../core/webhooks/deliveries.js';
import { deliveryView } from '../../core/webhooks/delivery-view.js';
import { sendTestEvent } from '../../core/webhooks/test-event.js';
import type { MerchantEnv } from '../auth.js';
import type { MerchantRoutes } from '../index.js';

export const listDeliveriesQuerySchema = z.strictObject({
  payment_id: z.string().min(1).max(100).optional(),
  status: z.enum(deliveryStatuses).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(300).optional(),
});

/** Wakes the running dispatcher so a redelivery or test event goes out now, not at the next poll. */
export interface DeliveryHooks {
  wake(): void;
}

async function attemptsOf(deps: ApiDeps, id: string): Promise<Attempt[]> {
  return deps.db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', '=', id)
    .orderBy('attempt_no')
    .execute();
}

/**
 * The merchant's delivery log and controls: GET /webhook-deliveries (filter by payment and status, keyset pages,
 * every attempt with response code, duration and error), GET /webhook-deliveries/{id}, POST .../{id}/redeliver,
 * POST /webhook-deliveries/test, and GET /webhook-endpoint + POST /webhook-endpoint/enable after a 410.
 */
export function webhookDeliveryRoutes(deps: ApiDeps, hooks: DeliveryHooks): MerchantRoutes {
  return (app) => {
    route(app, '/webhook-deliveries', {
      GET: async (c: Context<MerchantEnv>) => {
        const q = readQuery(c, listDeliveriesQuerySchema);
        if (q.cursor !== undefined && decodeCursor(q.cursor) === null)
          throw invalid('cursor', 'Unknown cursor; pass next_cursor from a previous page');
        const page = await listDeliveries(deps.db, c.get('merchant').id, {
          paymentId: q.payment_id,
          status: q.status,
          limit: q.limit,
          cursor: q.cursor,
        });
        return ok(c, {
          deliveries: page.deliveries.map((d) => deliveryView(d, d.attempt_log)),
          next_cursor: page.nextCursor,
        });
      },
    });
    route(app, '/webhook-deliveries/test', {
      POST: async (c: Context<MerchantEnv>) => {
        const d = await sendTestEvent(deps.db, c.get('merchant').id, deps.clock.now());
        hooks.wake();
        return ok(c, deliveryView(d, []), 'Test event queued', 202);
      },
    });
    route(app, '/webhook-deliveries/:delivery_id', {
      GET: async (c: Context<MerchantEnv>) => {
        const d = await getDelivery(deps.db, c.get('merchant').id, c.req.param('delivery_id') ?? '');
        if (!d) throw new AppError('NOT_FOUND', 'Webhook delivery not found');
        return ok(c, deliveryView(d, await attemptsOf(deps, d.id)));
      },
    });
    route(app, '/webhook-deliveries/:delivery_id/redeliver', {
      POST: async (c: Context<MerchantEnv>) => {
        const d = await redeliver(deps.db, c.get('merchant').id, c.req.param('delivery_id') ?? '', deps.clock.now());
        if (!d) throw new AppError('NOT_FOUND', 'Webhook delivery not found');
        hooks.wake();
        return ok(
          c,
          deliveryView(d, await attemptsOf(deps, d.id)),
          'Redelivery queued (same delivery id, fresh timestamp and signature)',
          202,
        );
      },
    });
    route(app, '/webhook-endpoint', {
      GET: (c: Context<MerchantEnv>) => {
        const m = c.get('merchant');
        return ok(c, { url: m.webhook_url, enabled: m.webhook_enabled === 1, mode: m.mode });
      },
    });
    route(app, '/webhook-endpoint/enable', {
      POST: async (c: Context<MerchantEnv>) => {
        const m = c.get('merchant');
        await enableEndpoint(deps.db, m.id, deps.clock.now());
        hooks.wake();
        return ok(
          c,
          { url: m.webhook_url, enabled: true, mode: m.mode },
          'Webhook endpoint enabled; held deliveries go out now',
        );
      },
    });
  };
}
