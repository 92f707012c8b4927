import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { emailSchema } from '../../../api-kit/schemas.js';
import { invitationMail, setPasswordUrl } from '../../../core/mail/account-mails.js';
import { enqueueMail } from '../../../core/mail/outbox.js';
import { addUser } from '../../../core/users/accounts.js';
import { type Role, roles } from '../../../core/users/memberships.js';
import { PASSWORD_LINK_TTL_MS } from '../../../core/users/password-tokens.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';

export const roleSchema = z.enum(roles, { error: 'Must be owner, viewer or cashier' });
export const inviteUserSchema = z.strictObject({ email: emailSchema, role: roleSchema });

/** Who was given a role, and their one-time link to set a password (a new person only; shown this once). */
export function invitedView(r: { user: { id: string; email: string }; role: Role }, inviteUrl: string | null) {
  return { user_id: r.user.id, email: r.user.email, role: r.role, invite_url: inviteUrl };
}

/**
 * POST /merchants/{id}/users (owner): gives an e-mail address a role here. A new person gets a one-time link to set
 * their password (`invite_url`, valid 24 hours, once: the admin CLI's set-password link, core/users/password-tokens.ts),
 * in this answer only, for the owner to pass on; someone who already has a password here or in another merchant
 * just gains the role (`invite_url` null).
 */
export function registerInviteUser(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/users', async (c) => {
    const { data } = await readJson(c, inviteUserSchema, x.deps.limits.bodyBytes);
    const merchantId = c.get('merchant').id;
    const r = await audited(
      x,
      c,
      async (trx) => {
        const added = await addUser(
          { db: trx, clock: x.deps.clock },
          { merchantId, email: data.email, role: data.role },
        );
        // The link goes by mail too, in the same transaction; the owners read that mail in the mail log when no
        // relay is configured.
        if (added.passwordToken)
          await enqueueMail(
            trx,
            {
              merchantId,
              kind: 'invitation',
              to: added.user.email,
              ...invitationMail({
                merchantName: c.get('merchant').name,
                role: data.role,
                url: setPasswordUrl(x.deps.settings.publicUrl, added.passwordToken),
                hours: PASSWORD_LINK_TTL_MS / 3_600_000,
              }),
            },
            x.deps.clock.now(),
          );
        return added;
      },
      // The link is a credential: the entry says one was made, never what it is.
      (added) => ({
        action: 'user.invite',
        target: added.user.id,
        details: { email: added.user.email, role: data.role, link_issued: added.passwordToken !== null },
      }),
    );
    x.deps.mail.wake();
    const inviteUrl = r.passwordToken ? setPasswordUrl(x.deps.settings.publicUrl, r.passwordToken) : null;
    return ok(
      c,
      invitedView(r, inviteUrl),
      inviteUrl
        ? 'User invited: the link was mailed to them (and is shown here once)'
        : 'Role given: they sign in as before',
      201,
    );
  });
}
