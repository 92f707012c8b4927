import type { Hono } from 'hono';
import { ok } from '../../api-kit/envelope.js';
import type { DashCtx, DashEnv } from '../context.js';
import { meView } from '../me.js';

/** GET /session: who is signed in, their merchants and roles, and the session's CSRF token (401 when signed out). */
export function registerReadSession(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/session', async (c) => ok(c, await meView(x.deps.db, c.get('signedIn'))));
}
