import { z } from 'zod';
import { readQuery } from '../../api-kit/body.js';
import { ok } from '../../api-kit/envelope.js';
import { paymentListSchema } from '../../api-kit/payment-schemas.js';
import { paymentStatusView } from '../../api-kit/payment-views.js';
import { paymentStatuses } from '../../core/payments/status.js';
import { listPayments } from '../../core/payments/store.js';
import type { MerchantRoute } from '../route.js';

const isoTime = z.iso
  .datetime({ offset: true, error: 'Must be an ISO 8601 timestamp with a UTC offset' })
  .transform((v) => Date.parse(v));

export const listPaymentsQuerySchema = z.strictObject({
  status: z.enum(paymentStatuses).optional(),
  created_from: isoTime.optional(),
  created_to: isoTime.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z.string().max(200).optional(),
});

/** GET /payments: reconciliation beyond the v1 contract; filter by status and creation time, keyset pages. */
export const listPaymentsRoute: MerchantRoute = {
  method: 'get',
  path: '/payments',
  operationId: 'listPayments',
  summary: 'List payments (reconciliation)',
  description: 'Newest first in keyset pages: pass `next_cursor` as `cursor` for the next page.',
  tag: 'Payments',
  query: listPaymentsQuerySchema,
  success: { status: 200, description: 'A page of payments', data: paymentListSchema },
  errors: [422],
  handler: (deps) => async (c) => {
    const q = readQuery(c, listPaymentsQuerySchema);
    const page = await listPayments(deps.db, c.get('merchant').id, {
      status: q.status,
      createdFrom: q.created_from,
      createdTo: q.created_to,
      limit: q.limit,
      cursor: q.cursor,
    });
    return ok(c, { payments: page.payments.map(paymentStatusView), next_cursor: page.nextCursor });
  },
};
