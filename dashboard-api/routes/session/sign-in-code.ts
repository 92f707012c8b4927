import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { signInWithCode } from '../../../core/users/sign-in.js';
import { type DashCtx, type DashEnv, setSessionCookie } from '../../context.js';
import { meView } from '../../me.js';

export const signInCodeSchema = z.strictObject({
  pending_token: z.string().min(1, 'Required').max(200),
  code: z.string().trim().min(1, 'Required').max(64),
});

/**
 * POST /session/two-factor: the second step of a sign-in, a TOTP code or a recovery code for the pending sign-in
 * the password step answered. Tries count against the sign-in limits; a code is taken once.
 */
export function registerSignInCode(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/session/two-factor', async (c) => {
    const { data } = await readJson(c, signInCodeSchema, x.deps.limits.bodyBytes);
    const s = await signInWithCode(x.deps, {
      pendingToken: data.pending_token,
      code: data.code,
      address: x.clientAddress(c),
    });
    setSessionCookie(c, x.deps, s.token);
    x.deps.mail.wake();
    return ok(c, await meView(x.deps.db, { userId: s.userId, email: s.email, token: s.token }), 'Signed in');
  });
}
