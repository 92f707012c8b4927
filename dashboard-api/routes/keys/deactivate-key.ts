import type { Hono } from 'hono';
import { ok } from '../../../api-kit/envelope.js';
import { idParam } from '../../../api-kit/path-params.js';
import { notFound } from '../../../core/errors.js';
import { deactivateMerchantKey } from '../../../core/merchants/merchants.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';

/** POST /merchants/{id}/keys/{key_id}/deactivate (owner): requests with this key get 401 from now on. */
export function registerDeactivateKey(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/keys/:key_id/deactivate', async (c) => {
    const id = idParam(c, 'key_id', 'Active key');
    await audited(
      x,
      c,
      async (trx) => {
        if (!(await deactivateMerchantKey(trx, x.deps.clock, c.get('merchant').id, id))) throw notFound('Active key');
      },
      () => ({ action: 'key.deactivate', target: id }),
    );
    return ok(c, { id, active: false }, 'Key deactivated');
  });
}
