import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { idParam } from '../../../api-kit/path-params.js';
import { notFound } from '../../../core/errors.js';
import { displayPrefix } from '../../../core/merchants/keys.js';
import { MAX_KEY_GRACE_MS, replaceKey } from '../../../core/merchants/merchants.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';

const HOUR_MS = 60 * 60 * 1000;
/** How long the old key keeps working when the owner does not say: a day to deploy the new one. */
export const DEFAULT_GRACE_HOURS = 24;

export const rotateKeySchema = z.strictObject({
  grace_hours: z
    .number({ error: 'Must be a whole number of hours' })
    .int('Must be a whole number of hours')
    .min(0, 'Must be 0 (stop at once) or more')
    .max(MAX_KEY_GRACE_MS / HOUR_MS, `At most ${MAX_KEY_GRACE_MS / HOUR_MS} hours (a week)`)
    .default(DEFAULT_GRACE_HOURS),
});

/**
 * POST /merchants/{id}/keys/{key_id}/rotate (owner): a new key of the same kind (and label) replaces this one. The
 * old key keeps working for `grace_hours` (default 24; 0 stops it at once) and is refused from then on; its end is
 * in the answer and on the Keys page. The new key is in this answer only.
 */
export function registerRotateKey(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/keys/:key_id/rotate', async (c) => {
    const id = idParam(c, 'key_id', 'Active key');
    const { data } = await readJson(c, rotateKeySchema, x.deps.limits.bodyBytes);
    const k = await audited(
      x,
      c,
      async (trx) => {
        const r = await replaceKey(trx, x.deps.clock, c.get('merchant').id, id, undefined, data.grace_hours * HOUR_MS);
        if (!r) throw notFound('Active key');
        return r;
      },
      (r) => ({
        action: 'key.rotate',
        target: id,
        details: {
          new_key_id: r.id,
          new_prefix: displayPrefix(r.key),
          old_key_valid_until: new Date(r.oldExpiresAt).toISOString(),
        },
      }),
    );
    return ok(
      c,
      {
        id: k.id,
        kind: k.kind,
        key: k.key,
        replaced: id,
        replaced_valid_until: new Date(k.oldExpiresAt).toISOString(),
      },
      'Key rotated: copy the new key now',
    );
  });
}
