import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { confirmEnrolment } from '../../../core/users/two-factor.js';
import { auditAccountChange } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';

export const enableTwoFactorSchema = z.strictObject({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Must be the 6 digits your app shows'),
});

/**
 * POST /account/two-factor: completes enrolment with a code from the app; two-factor is on from here. Answers the
 * ten recovery codes, once (stored as SHA-256 only). Each of the user's merchants gets an audit entry, in the
 * same transaction.
 */
export function registerTwoFactorEnable(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/account/two-factor', async (c) => {
    const { data } = await readJson(c, enableTwoFactorSchema, x.deps.limits.bodyBytes);
    const userId = c.get('signedIn').userId;
    const codes = await x.deps.db.transaction().execute(async (trx) => {
      const r = await confirmEnrolment(trx, userId, data.code, x.deps.clock.now());
      await auditAccountChange(x, c, trx, 'two_factor.enable');
      return r;
    });
    return ok(
      c,
      { recovery_codes: codes },
      'Two-factor sign-in is on. Keep these recovery codes somewhere safe: they are shown this once.',
      201,
    );
  });
}
