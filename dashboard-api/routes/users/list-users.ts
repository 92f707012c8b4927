import type { Hono } from 'hono';
import { ok } from '../../../api-kit/envelope.js';
import { isoOrNull } from '../../../core/clock.js';
import { membersOf } from '../../../core/users/accounts.js';
import type { DashCtx, DashEnv } from '../../context.js';

/** A member as the users page lists it; `you`: the member signed in as `me`. */
export function memberView(u: Awaited<ReturnType<typeof membersOf>>[number], me: string) {
  return {
    user_id: u.id,
    email: u.email,
    role: u.role,
    you: u.id === me,
    password_set: u.password_hash !== null,
    member_since: isoOrNull(u.created_at),
    last_sign_in_at: isoOrNull(u.last_sign_in_at),
  };
}

/**
 * GET /merchants/{id}/users: the merchant's members with their roles, whether they set a password yet (an invite not
 * yet used) and their last sign-in. Never a password or a link.
 */
export function registerListUsers(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/users', async (c) => {
    const rows = await membersOf(x.deps.db, c.get('merchant').id);
    const me = c.get('signedIn').userId;
    return ok(
      c,
      rows.map((u) => memberView(u, me)),
    );
  });
}
