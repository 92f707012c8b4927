import type { Hono } from 'hono';
import { ok } from '../../../api-kit/envelope.js';
import { endSession } from '../../../core/users/sessions.js';
import { clearSessionCookie, type DashCtx, type DashEnv } from '../../context.js';

/** DELETE /session: signs out. The session ends in the store, so its cookie is worthless even if kept. */
export function registerSignOut(app: Hono<DashEnv>, x: DashCtx): void {
  app.delete('/session', async (c) => {
    await endSession(x.deps.db, c.get('signedIn').token);
    clearSessionCookie(c, x.deps);
    return ok(c, null, 'Signed out');
  });
}
