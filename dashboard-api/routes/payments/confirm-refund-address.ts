import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { idParam } from '../../../api-kit/path-params.js';
import { confirmAddressSchema } from '../../../api-kit/refund-schemas.js';
import { confirmRefundAddress } from '../../../core/refunds/confirm-address.js';
import { explorerOf } from '../../../core/refunds/refund.js';
import { refundViews } from '../../../core/refunds/views.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { requireFreshCode } from '../../fresh-code.js';

const dashConfirmAddressSchema = confirmAddressSchema.extend({ code: z.string().max(40).optional() });

/**
 * POST /merchants/{id}/refunds/{refund_id}/address (owner): confirms where a refund goes (the customer's address as
 * the owner saw it, or one the owner enters), audited with the address, with a fresh two-factor code where the
 * merchant requires one: confirming the address decides where the money goes.
 */
export function registerDashConfirmRefundAddress(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/refunds/:refund_id/address', async (c) => {
    const id = idParam(c, 'refund_id', 'Refund');
    const { data } = await readJson(c, dashConfirmAddressSchema, x.deps.limits.bodyBytes);
    const done = await audited(
      x,
      c,
      async (trx) => {
        await requireFreshCode(x, c, trx, data.code, "confirm a refund's address");
        const r = await confirmRefundAddress(
          trx,
          x.deps.clock,
          x.deps.catalog,
          (v) => explorerOf(x.deps.chains, v),
          c.get('merchant').id,
          id,
          data.address,
        );
        if (!r.ok) throw r.error;
        return r.value;
      },
      (r) => ({
        action: 'refund.confirm_address',
        target: r.refund.id,
        details: {
          payment_id: r.refund.payment_id,
          address: r.refund.address,
          address_source: r.refund.address_source,
          changed: r.changed,
        },
      }),
    );
    if (done.changed) x.deps.webhooks.wake();
    const [view] = await refundViews(x.deps.db, x.deps.chains, x.deps.catalog, [done.refund]);
    return ok(c, view, done.changed ? 'Address confirmed' : 'Address was already confirmed');
  });
}
