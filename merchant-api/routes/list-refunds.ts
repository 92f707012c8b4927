import type { z } from 'zod';
import { ok } from '../../api-kit/envelope.js';
import { idParam } from '../../api-kit/path-params.js';
import { notFound } from '../../core/errors.js';
import { findMerchantPayment } from '../../core/payments/store.js';
import { refundsOfPayment } from '../../core/refunds/store.js';
import { refundViews } from '../../core/refunds/views.js';
import { asSent, refundListSchema } from '../openapi/refund-schemas.js';
import type { MerchantRoute } from '../route.js';

/** GET /payments/{payment_id}/refunds: every refund of a payment, oldest first (a payment has a handful at most). */
export const listRefundsRoute: MerchantRoute = {
  method: 'get',
  path: '/payments/{payment_id}/refunds',
  operationId: 'listRefunds',
  summary: "List a payment's refunds",
  description: "Oldest first, cancelled ones included. Another merchant's payment is a 404.",
  tag: 'Refunds',
  pathParams: { payment_id: { description: 'Payment id', example: 'pay_8fJ2kLq0Zx' } },
  success: { status: 200, description: "The payment's refunds", data: refundListSchema },
  errors: [404],
  handler: (deps) => async (c) => {
    const p = await findMerchantPayment(deps.db, c.get('merchant').id, idParam(c, 'payment_id', 'Payment'));
    if (!p) throw notFound('Payment');
    const body: z.input<typeof refundListSchema> = {
      refunds: asSent(await refundViews(deps.db, deps.chains, deps.catalog, await refundsOfPayment(deps.db, p.id))),
    };
    return ok(c, body);
  },
};
