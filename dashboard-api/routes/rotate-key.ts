import type { Hono } from 'hono';
import { ok } from '../../api-kit/envelope.js';
import { idParam } from '../../api-kit/path-params.js';
import { notFound } from '../../core/errors.js';
import { replaceKey } from '../../core/merchants/merchants.js';
import type { DashCtx, DashEnv } from '../context.js';

/**
 * POST /merchants/{id}/keys/{key_id}/rotate (owner): a new key of the same kind replaces this one, which stops
 * working at once (the key cache is emptied). The new key is in this answer only.
 */
export function registerRotateKey(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/keys/:key_id/rotate', async (c) => {
    const id = idParam(c, 'key_id', 'Active key');
    const k = await replaceKey(x.deps.db, x.deps.clock, c.get('merchant').id, id, x.deps.keys);
    if (!k) throw notFound('Active key');
    return ok(c, { id: k.id, kind: k.kind, key: k.key, replaced: id }, 'Key rotated: copy the new key now');
  });
}
