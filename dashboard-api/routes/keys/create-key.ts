import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { enqueueSecurityNotice } from '../../../core/mail/account-mails.js';
import { displayPrefix } from '../../../core/merchants/keys.js';
import { issueKey } from '../../../core/merchants/merchants.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';

/** A key's name as the merchant gives it ("shop server", "staging"): one line, or null for none. */
export const keyLabelSchema = z
  .string()
  .trim()
  .max(60, 'At most 60 characters')
  .refine((v) => ![...v].some((ch) => ch < ' ' || ch === '\u007f'), 'One line of text, no control characters')
  .transform((v) => (v === '' ? null : v))
  .nullable();

export const createKeySchema = z.strictObject({
  kind: z.enum(['secret', 'public'], { error: 'Must be secret (sk_) or public (dk_)' }),
  label: keyLabelSchema.optional(),
});

/** POST /merchants/{id}/keys (owner): one more key of a kind; the key is in this answer only, stored hashed. */
export function registerCreateKey(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/keys', async (c) => {
    const { data } = await readJson(c, createKeySchema, x.deps.limits.bodyBytes);
    const label = data.label ?? null;
    const k = await audited(
      x,
      c,
      async (trx) => {
        const k = await issueKey(trx, x.deps.clock, c.get('merchant').id, data.kind, label);
        // A key made from a stolen session is what the notice is for; it names the key, never contains it.
        await enqueueSecurityNotice(
          trx,
          {
            to: c.get('signedIn').email,
            notice: { kind: 'api_key_created', merchantName: c.get('merchant').name, keyKind: data.kind, label },
            publicUrl: x.deps.settings.publicUrl,
          },
          x.deps.clock.now(),
        );
        return k;
      },
      // The prefix identifies the key on the Keys page; the key itself never reaches the log.
      (r) => ({
        action: 'key.create',
        target: r.id,
        details: { kind: data.kind, prefix: displayPrefix(r.key), label },
      }),
    );
    x.deps.mail.wake();
    return ok(c, { id: k.id, kind: data.kind, label, key: k.key }, 'Key created: copy it now, it is shown once', 201);
  });
}
