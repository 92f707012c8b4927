import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../api-kit/body.js';
import { ok } from '../../api-kit/envelope.js';
import { issueKey } from '../../core/merchants/merchants.js';
import type { DashCtx, DashEnv } from '../context.js';

export const createKeySchema = z.strictObject({
  kind: z.enum(['secret', 'public'], { error: 'Must be secret (sk_) or public (dk_)' }),
});

/** POST /merchants/{id}/keys (owner): one more key of a kind; the key is in this answer only, stored hashed. */
export function registerCreateKey(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/keys', async (c) => {
    const { data } = await readJson(c, createKeySchema, x.deps.limits.bodyBytes);
    const k = await issueKey(x.deps.db, x.deps.clock, c.get('merchant').id, data.kind);
    return ok(c, { id: k.id, kind: data.kind, key: k.key }, 'Key created: copy it now, it is shown once', 201);
  });
}
