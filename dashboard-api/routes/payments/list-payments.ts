import type { Hono } from 'hono';
import { z } from 'zod';
import { readQuery } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { currencyCodeSchema } from '../../../api-kit/schemas.js';
import { paymentStatuses } from '../../../core/payments/status.js';
import { type ListFilter, listPayments, paymentSorts } from '../../../core/payments/store.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { rangeBoundSchema } from '../../params.js';
import { paymentRowView } from '../../views.js';

/** The list's filters and order, shared by the list and its CSV export (so the export is the list on screen). */
export const paymentFilterShape = {
  status: z.enum(paymentStatuses).optional(),
  asset: currencyCodeSchema.transform((v) => v.toUpperCase()).optional(),
  from: rangeBoundSchema(false).optional(),
  to: rangeBoundSchema(true).optional(),
  q: z.string().trim().min(1).max(200).optional(),
  sort: z.enum(paymentSorts).optional(),
};

export function filterOf(q: z.infer<z.ZodObject<typeof paymentFilterShape>>): Omit<ListFilter, 'limit' | 'cursor'> {
  return { status: q.status, asset: q.asset, createdFrom: q.from, createdTo: q.to, search: q.q, sort: q.sort };
}

export const listPaymentsQuerySchema = z.strictObject({
  ...paymentFilterShape,
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
});

/**
 * GET /merchants/{id}/payments: newest first (or oldest first, or by price: `sort`) in keyset pages, filtered by
 * status, asset and a creation range, or searched (`q`) by payment id or its displayed start, order id, customer
 * e-mail, address or txid. Every filter and search is an index range (migrations 0009, 0013).
 */
export function registerListPayments(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/payments', async (c) => {
    const q = readQuery(c, listPaymentsQuerySchema);
    const page = await listPayments(x.deps.db, c.get('merchant').id, {
      ...filterOf(q),
      limit: q.limit,
      cursor: q.cursor,
    });
    return ok(c, paymentsPageView(page));
  });
}

function paymentsPageView(page: Awaited<ReturnType<typeof listPayments>>) {
  return { payments: page.payments.map(paymentRowView), next_cursor: page.nextCursor };
}
export type PaymentsPage = ReturnType<typeof paymentsPageView>;
