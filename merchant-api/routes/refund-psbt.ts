import type { z } from 'zod';
import { readQuery } from '../../api-kit/body.js';
import { ok } from '../../api-kit/envelope.js';
import { idParam } from '../../api-kit/path-params.js';
import { refundPsbtQuerySchema } from '../../api-kit/refund-schemas.js';
import { refundPsbt } from '../../core/chains/families.js';
import { refundPsbtSchema } from '../openapi/refund-schemas.js';
import type { MerchantRoute } from '../route.js';

/**
 * GET /refunds/{refund_id}/psbt: an unsigned PSBT returning a ready Bitcoin-family refund from the payment's own
 * unspent outputs (topped up from the merchant's other deposits for the fee when they must be), for the merchant's wallet or hardware signer. Reading it changes nothing; the watcher sees the
 * refund when the signed transaction reaches the address.
 */
export const refundPsbtRoute: MerchantRoute = {
  method: 'get',
  path: '/refunds/{refund_id}/psbt',
  operationId: 'getRefundPsbt',
  summary: 'An unsigned PSBT for a Bitcoin-family refund',
  description:
    "For a `ready` BTC, LTC or DOGE refund whose payment's deposit outputs are still unspent at the merchant's derived address (checked with the node's `gettxout`): a PSBT spending those outputs (and, when they cannot also pay the fee, as for a refund of all the payment received, another unspent deposit at the merchant's key: `inputs` lists each with its address and path), paying the refund address exactly the refund amount, the fee from the node's estimate, change to the key's change child. Nothing is signed: sign it in the wallet holding the account key, broadcast it, and the watcher marks the refund sent then confirmed. A 409 says why there is none: the refund is not ready, the outputs were spent or do not cover amount plus fee (send with the payment URI instead), or the merchant's key changed since the payment. A 503 says the node did not answer. A 422 names `refund_id` for a refund of another family, `master_fingerprint` when it is not 8 hex digits.",
  tag: 'Refunds',
  query: refundPsbtQuerySchema,
  pathParams: { refund_id: { description: 'Refund id', example: 'rfd_4n8Kq2Wm' } },
  success: { status: 200, description: 'The unsigned PSBT and what it spends', data: refundPsbtSchema },
  errors: [404, 409, 422, 503],
  handler: (deps) => async (c) => {
    const id = idParam(c, 'refund_id', 'Refund');
    const q = readQuery(c, refundPsbtQuerySchema);
    const r = await refundPsbt(
      deps.db,
      { chains: deps.chains },
      {
        merchantId: c.get('merchant').id,
        refundId: id,
        masterFingerprint: q.master_fingerprint,
      },
    );
    if (!r.ok) throw r.error;
    const body: z.input<typeof refundPsbtSchema> = r.value;
    return ok(c, body);
  },
};
