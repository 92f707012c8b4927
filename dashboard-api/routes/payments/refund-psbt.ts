import type { Hono } from 'hono';
import { readQuery } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { idParam } from '../../../api-kit/path-params.js';
import { refundPsbtQuerySchema } from '../../../api-kit/refund-schemas.js';
import { refundPsbt } from '../../../core/chains/families.js';
import { AppError } from '../../../core/errors.js';
import type { DashCtx, DashEnv } from '../../context.js';

/**
 * GET /merchants/{id}/refunds/{refund_id}/psbt (owner): the merchant API's unsigned PSBT of a Bitcoin-family refund,
 * for the refund panel's copy and download. It reads and writes nothing of the store's state, so no audit entry;
 * owners only, as sending a refund is theirs.
 */
export function registerDashRefundPsbt(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/refunds/:refund_id/psbt', async (c) => {
    if (c.get('role') !== 'owner') throw new AppError('FORBIDDEN', 'Sending a refund is for an owner of this merchant');
    const id = idParam(c, 'refund_id', 'Refund');
    const q = readQuery(c, refundPsbtQuerySchema);
    const r = await refundPsbt(
      x.deps.db,
      { chains: x.deps.chains },
      {
        merchantId: c.get('merchant').id,
        refundId: id,
        masterFingerprint: q.master_fingerprint,
      },
    );
    if (!r.ok) throw r.error;
    return ok(c, r.value);
  });
}
