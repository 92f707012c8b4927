import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { emailSchema } from '../../../api-kit/schemas.js';
import { iso } from '../../../core/clock.js';
import { signIn } from '../../../core/users/sign-in.js';
import { type DashCtx, type DashEnv, setSessionCookie } from '../../context.js';
import { meView } from '../../me.js';

export const signInSchema = z.strictObject({
  email: emailSchema,
  password: z.string().min(1, 'Required').max(1024),
});

/**
 * POST /session: signs in with e-mail address and password; the session token goes into an HttpOnly cookie and never
 * into the page. Failed sign-ins are limited per address and per account (core/users/sign-in-throttle.ts). For a
 * user with two-factor on, the right password gives no session but `two_factor.pending_token`, which
 * POST /session/two-factor completes with a code within five minutes.
 */
export function registerSignIn(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/session', async (c) => {
    const { data } = await readJson(c, signInSchema, x.deps.limits.bodyBytes);
    const s = await signIn(x.deps, { email: data.email, password: data.password, address: x.clientAddress(c) });
    x.deps.mail.wake();
    if (s.pendingToken !== undefined)
      return ok(
        c,
        { two_factor: { pending_token: s.pendingToken, expires_at: iso(s.expiresAt) } },
        'Enter the code from your authenticator app',
      );
    setSessionCookie(c, x.deps, s.token);
    return ok(
      c,
      await meView(x.deps.db, { userId: s.userId, email: data.email.toLowerCase(), token: s.token }),
      'Signed in',
    );
  });
}
