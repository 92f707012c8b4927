import type { z } from 'zod';
import { readJson } from '../../api-kit/body.js';
import { ok } from '../../api-kit/envelope.js';
import { idParam } from '../../api-kit/path-params.js';
import { claimLinkRequestSchema, claimRequest } from '../../api-kit/refund-schemas.js';
import { newClaimLink } from '../../core/refunds/confirm-address.js';
import { explorerOf } from '../../core/refunds/refund.js';
import { refundViews } from '../../core/refunds/views.js';
import { bodyErrors } from '../openapi/operation.js';
import { asSent, refundWithClaimSchema } from '../openapi/refund-schemas.js';
import type { MerchantRoute } from '../route.js';

/**
 * POST /refunds/{refund_id}/claim-link (201): a new single-use claim link for a refund awaiting its address. The
 * previous link stops working, and an address the customer gave that the merchant has not confirmed is dropped.
 */
export const claimLinkRoute: MerchantRoute = {
  method: 'post',
  path: '/refunds/{refund_id}/claim-link',
  operationId: 'createRefundClaimLink',
  summary: 'Make a new claim link for the refund address',
  description:
    'For a refund `awaiting_address`: a new single-use link to a hosted page where the customer gives the address, in their language, checked for the network. The link is in this answer only (the service keeps its hash). The previous link stops working; an address the customer gave and you did not confirm is dropped. Once the address is confirmed it can no longer change (422 on `address`).',
  tag: 'Refunds',
  pathParams: { refund_id: { description: 'Refund id', example: 'rfd_4n8Kq2Wm' } },
  body: { schema: claimLinkRequestSchema, required: true, example: { expires_in_hours: 48 } },
  success: { status: 201, description: 'The refund and its new claim link', data: refundWithClaimSchema },
  errors: [...bodyErrors, 404],
  handler: (deps) => async (c) => {
    const id = idParam(c, 'refund_id', 'Refund');
    const { data } = await readJson(c, claimLinkRequestSchema, deps.limits.bodyBytes);
    const r = await newClaimLink(
      deps.db,
      deps.clock,
      (x) => explorerOf(deps.chains, x),
      c.get('merchant').id,
      id,
      claimRequest(data, deps.settings.publicUrl),
    );
    if (!r.ok) throw r.error;
    deps.webhooks.wake();
    const [view] = await refundViews(deps.db, deps.chains, deps.catalog, [r.value.refund]);
    const body: z.input<typeof refundWithClaimSchema> | undefined = view && {
      ...asSent(view),
      claim_link: r.value.claim,
    };
    return ok(c, body, 'Claim link made', 201);
  },
};
