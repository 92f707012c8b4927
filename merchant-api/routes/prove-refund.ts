import type { z } from 'zod';
import { readJson } from '../../api-kit/body.js';
import { ok } from '../../api-kit/envelope.js';
import { idParam } from '../../api-kit/path-params.js';
import { moneroProofSchema } from '../../api-kit/refund-schemas.js';
import { proveRefund } from '../../core/chains/families.js';
import { refundViews } from '../../core/refunds/views.js';
import { bodyErrors } from '../openapi/operation.js';
import { asSent, refundReadSchema } from '../openapi/refund-schemas.js';
import type { MerchantRoute } from '../route.js';

/**
 * POST /refunds/{refund_id}/monero-proof: a Monero refund the merchant's wallet sent, proved by its txid and tx key
 * (a view key cannot see outgoing payments). The service checks the transaction against its monerod and marks the
 * refund sent, or confirmed.
 */
export const proveRefundRoute: MerchantRoute = {
  method: 'post',
  path: '/refunds/{refund_id}/monero-proof',
  operationId: 'proveMoneroRefund',
  summary: 'Prove a Monero refund sent, by its transaction key',
  description:
    "A view key cannot see what the merchant's wallet sends, so a `ready` Monero refund is marked sent by its txid and transaction key. The service checks them as monero's `check_tx_key` does (derivation 8·r·A with the customer's view key, each output's key and its amount decrypted and opened against its commitment, subaddresses included) on its own monerod: the transaction must be in a block and pay the refund's address exactly the refund's amount. It is then `sent`, and `confirmed` at the chain's confirmation count (at once when it already has them). A 422 names the field: `tx_key` when it is not the transaction's key, `txid` when the transaction pays nothing or another amount to the address, is not mined yet or proved another refund, `refund_id` when the refund is not a ready Monero refund.",
  tag: 'Refunds',
  pathParams: { refund_id: { description: 'Refund id', example: 'rfd_4n8Kq2Wm' } },
  body: {
    schema: moneroProofSchema,
    required: true,
    example: {
      txid: 'c9ab06c6a5e7f5a1f5e9d1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6',
      tx_key: '0d3e5a1b6f2c7d8e9f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f00',
    },
  },
  success: { status: 200, description: 'The refund, sent or confirmed', data: refundReadSchema },
  errors: [...bodyErrors, 404],
  handler: (deps) => async (c) => {
    const id = idParam(c, 'refund_id', 'Refund');
    const { data } = await readJson(c, moneroProofSchema, deps.limits.bodyBytes);
    const r = await proveRefund(deps.db, deps.clock, deps.chains, {
      merchantId: c.get('merchant').id,
      refundId: id,
      txid: data.txid,
      txKey: data.tx_key,
    });
    if (!r.ok) throw r.error;
    deps.webhooks.wake();
    const [view] = await refundViews(deps.db, deps.chains, deps.catalog, [r.value]);
    const body: z.input<typeof refundReadSchema> | undefined = view && asSent(view);
    return ok(c, body, 'Refund proved sent');
  },
};
