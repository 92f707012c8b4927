import type { Hono } from 'hono';
import { ok } from '../../../api-kit/envelope.js';
import { idParam } from '../../../api-kit/path-params.js';
import { notFound } from '../../../core/errors.js';
import { removeMember } from '../../../core/users/accounts.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';

/**
 * DELETE /merchants/{id}/users/{user_id} (owner): removes a member from this merchant (their other merchants stay;
 * the admin CLI's `user deactivate` takes a person's access everywhere). The only owner is not removed (409).
 */
export function registerRemoveUser(app: Hono<DashEnv>, x: DashCtx): void {
  app.delete('/merchants/:merchant_id/users/:user_id', async (c) => {
    const userId = idParam(c, 'user_id', 'User');
    const r = await audited(
      x,
      c,
      async (trx) => {
        const removed = await removeMember(trx, c.get('merchant').id, userId);
        if (!removed) throw notFound('User');
        return removed;
      },
      (removed) => ({ action: 'user.remove', target: userId, details: { email: removed.email, role: removed.role } }),
    );
    return ok(c, { user_id: userId, email: r.email, removed: true }, 'User removed from this merchant');
  });
}
