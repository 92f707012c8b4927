import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { idParam } from '../../../api-kit/path-params.js';
import { notFound } from '../../../core/errors.js';
import { changeRole } from '../../../core/users/accounts.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { roleSchema } from './invite-user.js';

export const changeRoleSchema = z.strictObject({ role: roleSchema });

/** PATCH /merchants/{id}/users/{user_id} (owner): a member's role here; the only owner is not demoted (409). */
export function registerChangeRole(app: Hono<DashEnv>, x: DashCtx): void {
  app.patch('/merchants/:merchant_id/users/:user_id', async (c) => {
    const userId = idParam(c, 'user_id', 'User');
    const { data } = await readJson(c, changeRoleSchema, x.deps.limits.bodyBytes);
    const r = await audited(
      x,
      c,
      async (trx) => {
        const changed = await changeRole(trx, c.get('merchant').id, userId, data.role);
        if (!changed) throw notFound('User');
        return changed;
      },
      (changed) => ({
        action: 'user.role',
        target: userId,
        details: { email: changed.email, from: changed.from, to: data.role },
      }),
    );
    return ok(c, { user_id: userId, email: r.email, role: data.role }, 'Role changed');
  });
}
