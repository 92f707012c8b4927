import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { idParam } from '../../../api-kit/path-params.js';
import { notFound } from '../../../core/errors.js';
import { setKeyLabel } from '../../../core/merchants/merchants.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { keyLabelSchema } from './create-key.js';

export const labelKeySchema = z.strictObject({ label: keyLabelSchema });

/** PATCH /merchants/{id}/keys/{key_id} (owner): names a key (`label`; null or "" removes the name). */
export function registerLabelKey(app: Hono<DashEnv>, x: DashCtx): void {
  app.patch('/merchants/:merchant_id/keys/:key_id', async (c) => {
    const id = idParam(c, 'key_id', 'Key');
    const { data } = await readJson(c, labelKeySchema, x.deps.limits.bodyBytes);
    await audited(
      x,
      c,
      async (trx) => {
        if (!(await setKeyLabel(trx, c.get('merchant').id, id, data.label))) throw notFound('Key');
      },
      () => ({ action: 'key.label', target: id, details: { label: data.label } }),
    );
    return ok(c, { id, label: data.label }, 'Key renamed');
  });
}
