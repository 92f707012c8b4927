import type { Hono } from 'hono';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { idParam } from '../../../api-kit/path-params.js';
import { moneroProofSchema } from '../../../api-kit/refund-schemas.js';
import { proveRefund } from '../../../core/chains/families.js';
import { refundViews } from '../../../core/refunds/views.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';

/**
 * POST /merchants/{id}/refunds/{refund_id}/monero-proof (owner): the merchant API's tx-key proof of a Monero refund,
 * audited in the same transaction.
 */
export function registerDashProveRefund(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/refunds/:refund_id/monero-proof', async (c) => {
    const id = idParam(c, 'refund_id', 'Refund');
    const { data } = await readJson(c, moneroProofSchema, x.deps.limits.bodyBytes);
    const refund = await audited(
      x,
      c,
      async (trx) => {
        const r = await proveRefund(trx, x.deps.clock, x.deps.chains, {
          merchantId: c.get('merchant').id,
          refundId: id,
          txid: data.txid,
          txKey: data.tx_key,
        });
        if (!r.ok) throw r.error;
        return r.value;
      },
      (r) => ({ action: 'refund.prove', target: r.id, details: { payment_id: r.payment_id, txid: r.txid } }),
    );
    x.deps.webhooks.wake();
    const [view] = await refundViews(x.deps.db, x.deps.chains, x.deps.catalog, [refund]);
    return ok(c, view, 'Refund proved sent');
  });
}
