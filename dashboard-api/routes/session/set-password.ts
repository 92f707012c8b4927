import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { MAX_PASSWORD_LENGTH } from '../../../core/users/passwords.js';
import { setPasswordWithToken } from '../../../core/users/sign-in.js';
import type { DashCtx, DashEnv } from '../../context.js';

export const setPasswordSchema = z.strictObject({
  token: z.string().min(1, 'Required').max(200),
  password: z.string().max(MAX_PASSWORD_LENGTH * 4),
});

/**
 * POST /password: sets a password through a one-time link (`user create` without --password-stdin, `user
 * reset-password`). The link is used up, and the user is signed out everywhere; they sign in afterwards.
 */
export function registerSetPassword(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/password', async (c) => {
    const { data } = await readJson(c, setPasswordSchema, x.deps.limits.bodyBytes);
    await setPasswordWithToken(x.deps, data.token, data.password, x.clientAddress(c));
    x.deps.mail.wake();
    return ok(c, null, 'Password set: sign in with it now');
  });
}
