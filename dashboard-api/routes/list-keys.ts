import type { Hono } from 'hono';
import { ok } from '../../api-kit/envelope.js';
import { isoOrNull } from '../../core/clock.js';
import { listKeys } from '../../core/merchants/merchants.js';
import type { DashCtx, DashEnv } from '../context.js';

/**
 * GET /merchants/{id}/keys: every key by id and displayable prefix (never the key), active or not, with when it was
 * last used (to the minute: core/merchants/key-usage.ts).
 */
export function registerListKeys(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/keys', async (c) => {
    const keys = await listKeys(x.deps.db, c.get('merchant').id);
    return ok(
      c,
      keys.map((k) => ({
        id: k.id,
        kind: k.kind,
        prefix: k.prefix,
        active: k.active === 1,
        created_at: isoOrNull(k.created_at),
        deactivated_at: isoOrNull(k.deactivated_at),
        last_used_at: isoOrNull(k.last_used_at),
      })),
    );
  });
}
