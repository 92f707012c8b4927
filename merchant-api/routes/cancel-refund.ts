import type { z } from 'zod';
import { refuseBody } from '../../api-kit/body.js';
import { ok } from '../../api-kit/envelope.js';
import { idParam } from '../../api-kit/path-params.js';
import { cancelRefund } from '../../core/refunds/cancel-refund.js';
import { explorerOf } from '../../core/refunds/refund.js';
import { refundViews } from '../../core/refunds/views.js';
import { asSent, refundReadSchema } from '../openapi/refund-schemas.js';
import type { MerchantRoute } from '../route.js';

/** POST /refunds/{refund_id}/cancel: a refund not yet sent is cancelled, and what it held can be refunded again. */
export const cancelRefundRoute: MerchantRoute = {
  method: 'post',
  path: '/refunds/{refund_id}/cancel',
  operationId: 'cancelRefund',
  summary: 'Cancel a refund not yet sent',
  description:
    'Only `awaiting_address` and `ready` refunds can be cancelled (400 otherwise): once its amount was seen on chain the money has moved. The route takes no request body.',
  tag: 'Refunds',
  pathParams: { refund_id: { description: 'Refund id', example: 'rfd_4n8Kq2Wm' } },
  success: { status: 200, description: 'The cancelled refund', data: refundReadSchema },
  errors: [400, 404, 413],
  handler: (deps) => async (c) => {
    const id = idParam(c, 'refund_id', 'Refund');
    await refuseBody(c);
    const r = await cancelRefund(deps.db, deps.clock, (x) => explorerOf(deps.chains, x), c.get('merchant').id, id);
    if (!r.ok) throw r.error;
    deps.webhooks.wake();
    const [view] = await refundViews(deps.db, deps.chains, deps.catalog, [r.value]);
    const body: z.input<typeof refundReadSchema> | undefined = view && asSent(view);
    return ok(c, body, 'Refund cancelled');
  },
};
