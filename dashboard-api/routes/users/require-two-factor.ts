import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { AppError } from '../../../core/errors.js';
import { setTwoFactorRequired } from '../../../core/users/two-factor.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';

export const requireTwoFactorSchema = z.strictObject({ required: z.boolean() });

/**
 * PUT /merchants/{id}/two-factor-requirement (owner): whether every member must sign in with two-factor. Members
 * without it are then refused this merchant's pages (403) until they turn it on. The owner must have it on first,
 * so requiring it never locks out the one who required it.
 */
export function registerRequireTwoFactor(app: Hono<DashEnv>, x: DashCtx): void {
  app.put('/merchants/:merchant_id/two-factor-requirement', async (c) => {
    const { data } = await readJson(c, requireTwoFactorSchema, x.deps.limits.bodyBytes);
    if (data.required && !c.get('twoFactor'))
      throw new AppError('CONFLICT', 'Turn on two-factor sign-in for your own account first');
    await audited(
      x,
      c,
      (trx) => setTwoFactorRequired(trx, c.get('merchant').id, data.required, x.deps.clock.now()),
      () => ({ action: 'two_factor.require', details: { required: data.required } }),
    );
    return ok(
      c,
      { two_factor_required: data.required },
      data.required ? 'Two-factor sign-in is now required of every member' : 'Two-factor sign-in is no longer required',
    );
  });
}
