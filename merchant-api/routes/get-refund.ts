import type { z } from 'zod';
import { ok } from '../../api-kit/envelope.js';
import { idParam } from '../../api-kit/path-params.js';
import { notFound } from '../../core/errors.js';
import { findMerchantRefund } from '../../core/refunds/store.js';
import { refundViews } from '../../core/refunds/views.js';
import { asSent, refundReadSchema } from '../openapi/refund-schemas.js';
import type { MerchantRoute } from '../route.js';

/** GET /refunds/{refund_id}: another merchant's refund is a 404, exactly like a missing one. */
export const getRefundRoute: MerchantRoute = {
  method: 'get',
  path: '/refunds/{refund_id}',
  operationId: 'getRefund',
  summary: 'Read a refund',
  description:
    "Its status, amount, address and, once seen on chain, the transaction. Another merchant's refund is a 404.",
  tag: 'Refunds',
  pathParams: { refund_id: { description: 'Refund id', example: 'rfd_4n8Kq2Wm' } },
  success: { status: 200, description: 'The refund', data: refundReadSchema },
  errors: [404],
  handler: (deps) => async (c) => {
    const r = await findMerchantRefund(deps.db, c.get('merchant').id, idParam(c, 'refund_id', 'Refund'));
    if (!r) throw notFound('Refund');
    const [view] = await refundViews(deps.db, deps.chains, deps.catalog, [r]);
    const body: z.input<typeof refundReadSchema> | undefined = view && asSent(view);
    return ok(c, body);
  },
};
