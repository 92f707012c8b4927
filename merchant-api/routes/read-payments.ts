import type { Context } from 'hono';
import { z } from 'zod';
import { readQuery } from '../../api-kit/body.js';
import type { ApiDeps } from '../../api-kit/deps.js';
import { jsonText, ok, okText } from '../../api-kit/envelope.js';
import { paymentStatusView } from '../../api-kit/payment-views.js';
import { getPayment } from '../../core/payments/create-payment.js';
import { listPayments } from '../../core/payments/list-payments.js';
import type { Payment } from '../../core/payments/payment.js';
import { paymentStatuses } from '../../core/payments/status.js';
import type { MerchantEnv } from '../auth.js';

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

/**
 * GET /payments/{payment_id} (spec 4.8): another merchant's payment is a 404, exactly like a missing one.
 * Polled often: the JSON text is kept per cached row object, so it lives exactly as long as the row stays current.
 */
export function getPaymentHandler(deps: ApiDeps) {
  const texts = new WeakMap<Payment, string>();
  return async (c: Context<MerchantEnv>) => {
    // The key cache synced this request after its last I/O (requireSecretKey), so the payment cache need not again.
    const p = await getPayment(deps, c.get('merchant').id, c.req.param('payment_id') ?? '', true);
    let text = texts.get(p);
    if (text === undefined) {
      text = okText(paymentStatusView(p));
      texts.set(p, text);
    }
    return jsonText(c, text);
  };
}

/** GET /payments: reconciliation beyond the spec; filter by status and creation time, keyset pages. */
export function listPaymentsHandler(deps: ApiDeps) {
  return async (c: Context<MerchantEnv>) => {
    const q = readQuery(c, listPaymentsQuerySchema);
    const page = await listPayments(deps, c.get('merchant').id, {
      status: q.status,
      createdFrom: q.created_from,
      createdTo: q.created_to,
      limit: q.limit,
      cursor: q.cursor,
    });
    return ok(c, { payments: page.payments.map(paymentStatusView), next_cursor: page.nextCursor });
  };
}
