import type { Hono } from 'hono';
import { ok } from '../../../api-kit/envelope.js';
import { AppError } from '../../../core/errors.js';
import { getMail } from '../../../core/mail/mail-log.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { mailView } from '../../mail-view.js';
import { requireOwnerRead } from './list-mails.js';

/** GET /merchants/{id}/mails/{mail_id} (owner): one mail with its plain-text body and attempts. */
export function registerGetMail(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/mails/:mail_id', async (c) => {
    requireOwnerRead(c);
    const m = await getMail(x.deps.db, c.get('merchant').id, c.req.param('mail_id'));
    if (!m) throw new AppError('NOT_FOUND', 'Mail not found');
    return ok(c, mailView(m, m.attempt_log, true));
  });
}
