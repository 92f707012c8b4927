import type { Hono } from 'hono';
import { z } from 'zod';
import { readQuery } from '../../api-kit/body.js';
import { ok } from '../../api-kit/envelope.js';
import { currencyCodeSchema } from '../../api-kit/schemas.js';
import { paymentStatuses } from '../../core/payments/status.js';
import { listPayments } from '../../core/payments/store.js';
import type { DashCtx, DashEnv } from '../context.js';
import { rangeBoundSchema } from '../params.js';
import { paymentRowView } from '../views.js';

export const listPaymentsQuerySchema = z.strictObject({
  status: z.enum(paymentStatuses).optional(),
  asset: currencyCodeSchema.transform((v) => v.toUpperCase()).optional(),
  from: rangeBoundSchema(false).optional(),
  to: rangeBoundSchema(true).optional(),
  q: z.string().trim().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
});

/**
 * GET /merchants/{id}/payments: newest first in keyset pages, filtered by status, asset and a creation range, or
 * searched by payment id, order id, address or txid (`q`, exact). Every filter is an index range (migration 0009).
 */
export function registerListPayments(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/payments', async (c) => {
    const q = readQuery(c, listPaymentsQuerySchema);
    const page = await listPayments(x.deps.db, c.get('merchant').id, {
      status: q.status,
      asset: q.asset,
      createdFrom: q.from,
      createdTo: q.to,
      search: q.q,
      limit: q.limit,
      cursor: q.cursor,
    });
    return ok(c, { payments: page.payments.map(paymentRowView), next_cursor: page.nextCursor });
  });
}
