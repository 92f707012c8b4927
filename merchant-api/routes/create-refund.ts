import type { z } from 'zod';
import { readJson } from '../../api-kit/body.js';
import { ok } from '../../api-kit/envelope.js';
import { idParam } from '../../api-kit/path-params.js';
import { claimRequest, createRefundSchema } from '../../api-kit/refund-schemas.js';
import { createRefund } from '../../core/refunds/create-refund.js';
import { explorerOf } from '../../core/refunds/refund.js';
import { refundViews } from '../../core/refunds/views.js';
import { bodyErrors } from '../openapi/operation.js';
import { asSent, refundWithClaimSchema } from '../openapi/refund-schemas.js';
import type { MerchantRoute } from '../route.js';

/**
 * POST /payments/{payment_id}/refunds (201): a refund of what the payment received, never more than is left even
 * when several are created at once. The service never sends it: the merchant's wallet does, and the watchers see it.
 */
export const createRefundRoute: MerchantRoute = {
  method: 'post',
  path: '/payments/{payment_id}/refunds',
  operationId: 'createRefund',
  summary: 'Refund a payment (in part or in full)',
  description:
    "Creates a refund in the paid asset's exact base units, within what the payment received less what its other refunds hold (a 422 on `amount_units` names that limit). With `address` it is `ready` for the merchant's wallet to send; without, it awaits one, and `claim_link` asks the customer for it through a single-use hosted page (mailed to the payment's customer; the link is in this answer only). An address given by the customer must then be confirmed (POST /refunds/{refund_id}/address) before the refund is `ready`. A `refund.updated` webhook follows every change.",
  tag: 'Refunds',
  pathParams: { payment_id: { description: 'Payment id', example: 'pay_8fJ2kLq0Zx' } },
  body: {
    schema: createRefundSchema,
    required: true,
    example: { amount_units: '1500', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
  },
  success: { status: 201, description: 'The refund', data: refundWithClaimSchema },
  errors: [...bodyErrors, 404, 409],
  handler: (deps) => async (c) => {
    const paymentId = idParam(c, 'payment_id', 'Payment');
    const { data } = await readJson(c, createRefundSchema, deps.limits.bodyBytes);
    const r = await createRefund(deps.db, deps.clock, deps.catalog, deps.chains, (x) => explorerOf(deps.chains, x), {
      merchantId: c.get('merchant').id,
      paymentId,
      amountUnits: data.amount_units === undefined ? undefined : BigInt(data.amount_units),
      address: data.address,
      reason: data.reason,
      claim: data.claim_link && claimRequest(data.claim_link, deps.settings.publicUrl),
    });
    if (!r.ok) throw r.error;
    deps.webhooks.wake();
    const [view] = await refundViews(deps.db, deps.chains, deps.catalog, [r.value]);
    const body: z.input<typeof refundWithClaimSchema> | undefined = view && {
      ...asSent(view),
      claim_link: r.value.claim ?? null,
    };
    return ok(c, body, 'Refund created', 201);
  },
};
