import { ok } from '../../api-kit/envelope.js';
import { idParam } from '../../api-kit/path-params.js';
import { paymentStatusViewSchema } from '../../api-kit/payment-schemas.js';
import { paymentStatusView } from '../../api-kit/payment-views.js';
import { notFound } from '../../core/errors.js';
import { findMerchantPayment } from '../../core/payments/store.js';
import type { MerchantRoute } from '../route.js';

/** GET /payments/{payment_id} (API §4.8): another merchant's payment is a 404, exactly like a missing one. */
export const getPaymentRoute: MerchantRoute = {
  method: 'get',
  path: '/payments/{payment_id}',
  operationId: 'getPayment',
  summary: "Read a payment's status",
  description: "Another merchant's payment is a 404, exactly like a missing one.",
  tag: 'Payments',
  pathParams: { payment_id: { description: 'Payment id', example: 'pay_8fJ2kLq0Zx' } },
  success: { status: 200, description: 'The payment', data: paymentStatusViewSchema },
  errors: [404],
  handler: (deps) => async (c) => {
    const p = await findMerchantPayment(deps.db, c.get('merchant').id, idParam(c, 'payment_id', 'Payment'));
    if (!p) throw notFound('Payment');
    return ok(c, paymentStatusView(p));
  },
};
