import type { z } from 'zod';
import { readJson } from '../../api-kit/body.js';
import { ok } from '../../api-kit/envelope.js';
import { idParam } from '../../api-kit/path-params.js';
import { confirmAddressSchema } from '../../api-kit/refund-schemas.js';
import { confirmRefundAddress } from '../../core/refunds/confirm-address.js';
import { explorerOf } from '../../core/refunds/refund.js';
import { refundViews } from '../../core/refunds/views.js';
import { bodyErrors } from '../openapi/operation.js';
import { asSent, refundReadSchema } from '../openapi/refund-schemas.js';
import type { MerchantRoute } from '../route.js';

/**
 * POST /refunds/{refund_id}/address: the merchant confirms the refund's address (the customer's, repeated, or its
 * own); the refund becomes `ready` with its send instructions, and the address is fixed from then on.
 */
export const confirmRefundAddressRoute: MerchantRoute = {
  method: 'post',
  path: '/refunds/{refund_id}/address',
  operationId: 'confirmRefundAddress',
  summary: "Confirm the refund's address",
  description:
    'Confirms where the refund goes: the address the customer gave through the claim link (repeat it as you checked it: another one is a 422), or, when none was given, the one you enter. The refund becomes `ready` and gets its `send` instructions; the address can never change after that (another address is a 422 on `address`, the same one again changes nothing). An address of another network or with a bad checksum is a 422 and writes nothing.',
  tag: 'Refunds',
  pathParams: { refund_id: { description: 'Refund id', example: 'rfd_4n8Kq2Wm' } },
  body: {
    schema: confirmAddressSchema,
    required: true,
    example: { address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
  },
  success: { status: 200, description: 'The refund, `ready`', data: refundReadSchema },
  errors: [...bodyErrors, 404],
  handler: (deps) => async (c) => {
    const id = idParam(c, 'refund_id', 'Refund');
    const { data } = await readJson(c, confirmAddressSchema, deps.limits.bodyBytes);
    const r = await confirmRefundAddress(
      deps.db,
      deps.clock,
      deps.catalog,
      (x) => explorerOf(deps.chains, x),
      c.get('merchant').id,
      id,
      data.address,
    );
    if (!r.ok) throw r.error;
    if (r.value.changed) deps.webhooks.wake();
    const [view] = await refundViews(deps.db, deps.chains, deps.catalog, [r.value.refund]);
    const body: z.input<typeof refundReadSchema> | undefined = view && asSent(view);
    return ok(c, body, r.value.changed ? 'Address confirmed' : 'Address was already confirmed');
  },
};
