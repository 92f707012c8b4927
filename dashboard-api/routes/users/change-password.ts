import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { enqueueSecurityNotice } from '../../../core/mail/account-mails.js';
import { changePassword } from '../../../core/users/accounts.js';
import { MAX_PASSWORD_LENGTH } from '../../../core/users/passwords.js';
import { auditAccountChange } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';

export const changePasswordSchema = z.strictObject({
  current_password: z
    .string()
    .min(1, 'Required')
    .max(MAX_PASSWORD_LENGTH * 4),
  new_password: z.string().max(MAX_PASSWORD_LENGTH * 4),
});

/**
 * POST /account/password: the signed-in user's new password, given the current one. Other sessions end; this one
 * stays. Each of the user's merchants gets an audit entry, in the same transaction.
 */
export function registerChangePassword(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/account/password', async (c) => {
    const { data } = await readJson(c, changePasswordSchema, x.deps.limits.bodyBytes);
    const s = c.get('signedIn');
    await changePassword(
      x.deps,
      { userId: s.userId, current: data.current_password, next: data.new_password, keepSessionId: s.id },
      async (trx) => {
        await auditAccountChange(x, c, trx, 'password.change');
        await enqueueSecurityNotice(
          trx,
          { to: s.email, notice: { kind: 'password_changed' }, publicUrl: x.deps.settings.publicUrl },
          x.deps.clock.now(),
        );
      },
    );
    x.deps.mail.wake();
    return ok(c, null, 'Password changed; your other sessions were signed out');
  });
}
