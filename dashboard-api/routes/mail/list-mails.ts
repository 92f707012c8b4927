import type { Hono } from 'hono';
import { z } from 'zod';
import { readQuery } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { AppError } from '../../../core/errors.js';
import { listMails, mailStatuses } from '../../../core/mail/mail-log.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { mailView } from '../../mail-view.js';

export const listMailsQuerySchema = z.strictObject({
  status: z.enum(mailStatuses).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(300).optional(),
});

/** Mails can carry invitation links: the log is for owners only. */
export function requireOwnerRead(c: { get(k: 'role'): string }): void {
  if (c.get('role') !== 'owner') throw new AppError('FORBIDDEN', 'Only owners read the mail log');
}

/** A page of the mail log, and whether a relay is configured (without one, mail waits here). */
export function mailLogView(relay: boolean, page: Awaited<ReturnType<typeof listMails>>) {
  return { relay, mails: page.mails.map((m) => mailView(m, m.attempt_log)), next_cursor: page.nextCursor };
}

/**
 * GET /merchants/{id}/mails (owner): the merchant's mail log, newest first, each mail with every attempt's answer
 * from the relay; `relay` says whether an SMTP relay is configured at all (without one, mail waits here).
 */
export function registerListMails(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/mails', async (c) => {
    requireOwnerRead(c);
    const q = readQuery(c, listMailsQuerySchema);
    return ok(c, mailLogView(x.deps.mail.relay, await listMails(x.deps.db, c.get('merchant').id, q)));
  });
}
