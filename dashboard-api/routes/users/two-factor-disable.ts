import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { enqueueSecurityNotice } from '../../../core/mail/account-mails.js';
import { MAX_PASSWORD_LENGTH } from '../../../core/users/passwords.js';
import { disableTwoFactor } from '../../../core/users/two-factor.js';
import { auditAccountChange } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';

export const disableTwoFactorSchema = z
  .strictObject({
    code: z.string().trim().min(1, 'Required').max(64).optional(),
    password: z
      .string()
      .min(1, 'Required')
      .max(MAX_PASSWORD_LENGTH * 4)
      .optional(),
  })
  .refine((b) => (b.code === undefined) !== (b.password === undefined), {
    message: 'Give either a current code or your password',
    path: ['code'],
  });

/**
 * POST /account/two-factor/disable: turns two-factor off, given a current code (or a recovery code) or the password;
 * the secret and the recovery codes are deleted. Audited in each of the user's merchants, in the same transaction.
 */
export function registerTwoFactorDisable(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/account/two-factor/disable', async (c) => {
    const { data } = await readJson(c, disableTwoFactorSchema, x.deps.limits.bodyBytes);
    await disableTwoFactor(
      x.deps.db,
      { userId: c.get('signedIn').userId, code: data.code, password: data.password, now: x.deps.clock.now() },
      async (trx) => {
        await auditAccountChange(x, c, trx, 'two_factor.disable');
        await enqueueSecurityNotice(
          trx,
          {
            to: c.get('signedIn').email,
            notice: { kind: 'two_factor_disabled' },
            publicUrl: x.deps.settings.publicUrl,
          },
          x.deps.clock.now(),
        );
      },
    );
    x.deps.mail.wake();
    return ok(c, null, 'Two-factor sign-in is off');
  });
}
