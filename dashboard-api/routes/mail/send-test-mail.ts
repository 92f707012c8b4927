import type { Hono } from 'hono';
import { ok } from '../../../api-kit/envelope.js';
import { enqueueMail } from '../../../core/mail/outbox.js';
import { renderMail } from '../../../core/mail/render.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';

/** The queued test mail to follow in the log, and whether a relay will send it. */
export const testMailView = (mailId: string | null, relay: boolean) => ({ mail_id: mailId, relay });

/**
 * POST /merchants/{id}/mail-settings/test (owner): "Send a test e-mail" to the signed-in owner's own address, in the
 * merchant's sender name and reply-to, through the outbox like every mail; the answer names the mail to follow in
 * the log. Only to oneself, so the button cannot mail strangers.
 */
export function registerSendTestMail(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/mail-settings/test', async (c) => {
    const m = c.get('merchant');
    const to = c.get('signedIn').email;
    const content = renderMail({
      subject: `Test e-mail from ${m.name}`,
      blocks: [
        { p: `This is a test e-mail of the payments service for ${m.name}.` },
        { p: 'It reached you: customer receipts and notices will too, from the same sender.' },
      ],
    });
    const id = await audited(
      x,
      c,
      (trx) =>
        enqueueMail(trx, { merchantId: m.id, kind: 'test', to, asMerchant: true, ...content }, x.deps.clock.now()),
      () => ({ action: 'mail.test', details: { to } }),
    );
    x.deps.mail.wake();
    return ok(
      c,
      testMailView(id, x.deps.mail.relay),
      x.deps.mail.relay
        ? `Test e-mail queued to ${to}: its answer from the relay shows in the mail log`
        : `No SMTP relay is configured: the test e-mail waits in the mail log`,
      202,
    );
  });
}
