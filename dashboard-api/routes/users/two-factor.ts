import type { Hono } from 'hono';
import { ok } from '../../../api-kit/envelope.js';
import { twoFactorOf } from '../../../core/users/two-factor.js';
import type { DashCtx, DashEnv } from '../../context.js';

/** GET /account/two-factor: whether the signed-in user has two-factor on, and how many recovery codes are left. */
export function registerTwoFactor(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/account/two-factor', async (c) => {
    const t = await twoFactorOf(x.deps.db, c.get('signedIn').userId);
    return ok(c, { enabled: t.enabled, recovery_codes_left: t.recoveryCodesLeft });
  });
}
