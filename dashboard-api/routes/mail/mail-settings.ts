import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { emailSchema } from '../../../api-kit/schemas.js';
import { isMailAddress } from '../../../core/mail/outbox.js';
import { getMailSettings, type MailSettings, saveMailSettings } from '../../../core/mail/settings.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { requireOwnerRead } from './list-mails.js';

export const mailSettingsSchema = z.strictObject({
  sender_name: z
    .string()
    .trim()
    .max(100, 'At most 100 characters')
    .refine((v) => ![...v].some((ch) => ch < ' ' || ch === '\u007f'), 'One line of text, no control characters')
    .transform((v) => (v === '' ? null : v))
    .nullable(),
  reply_to: emailSchema
    .refine(isMailAddress, 'Must be a plain e-mail address')
    .nullable()
    .or(z.literal('').transform(() => null)),
  receipts: z.boolean(),
  underpaid: z.boolean(),
  expired_partly_paid: z.boolean(),
});

export function mailSettingsView(s: MailSettings) {
  return {
    sender_name: s.senderName,
    reply_to: s.replyTo,
    receipts: s.receipts,
    underpaid: s.underpaid,
    expired_partly_paid: s.expiredPartlyPaid,
  };
}

/** The merchant's mail settings, and whether a relay is configured to send them at all. */
export function mailSettingsAnswer(relay: boolean, s: MailSettings) {
  return { relay, ...mailSettingsView(s) };
}

/**
 * GET and PUT /merchants/{id}/mail-settings (owner): the sender name and reply-to of customer mails (the From
 * address stays the operator's MAIL_FROM, so the relay's SPF and DKIM still match), and which customer mails go
 * out. A change is audited with what it set.
 */
export function registerMailSettings(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/mail-settings', async (c) => {
    requireOwnerRead(c);
    return ok(c, mailSettingsAnswer(x.deps.mail.relay, await getMailSettings(x.deps.db, c.get('merchant').id)));
  });
  app.put('/merchants/:merchant_id/mail-settings', async (c) => {
    const { data } = await readJson(c, mailSettingsSchema, x.deps.limits.bodyBytes);
    const s: MailSettings = {
      senderName: data.sender_name,
      replyTo: data.reply_to,
      receipts: data.receipts,
      underpaid: data.underpaid,
      expiredPartlyPaid: data.expired_partly_paid,
    };
    await audited(
      x,
      c,
      (trx) => saveMailSettings(trx, c.get('merchant').id, s, x.deps.clock.now()),
      () => ({ action: 'mail.settings', details: mailSettingsView(s) }),
    );
    return ok(c, mailSettingsAnswer(x.deps.mail.relay, s), 'Mail settings saved');
  });
}
