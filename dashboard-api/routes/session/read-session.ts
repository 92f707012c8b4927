import type { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { ok } from '../../../api-kit/envelope.js';
import { findLiveSession } from '../../../core/users/sessions.js';
import { clearSessionCookie, type DashCtx, type DashEnv, SESSION_COOKIE } from '../../context.js';
import { meView } from '../../me.js';

/**
 * GET /session: who is signed in, their merchants and roles, and the session's CSRF token; `data: null` when nobody
 * is (the page's first question, which has two ordinary answers, so no error status for either).
 */
export function registerReadSession(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/session', async (c) => {
    const token = getCookie(c, SESSION_COOKIE);
    const found = token ? await findLiveSession(x.deps.db, token, x.deps.clock.now()) : undefined;
    if (!token || !found) {
      if (token) clearSessionCookie(c, x.deps);
      return ok(c, null, 'Not signed in');
    }
    return ok(c, await meView(x.deps.db, { ...found, token }));
  });
}
