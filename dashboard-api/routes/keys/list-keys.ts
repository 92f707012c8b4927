import type { Hono } from 'hono';
import { ok } from '../../../api-kit/envelope.js';
import { isoOrNull } from '../../../core/clock.js';
import { listKeys } from '../../../core/merchants/merchants.js';
import type { DashCtx, DashEnv } from '../../context.js';

/**
 * GET /merchants/{id}/keys: every key by id, label and displayable prefix (never the key), active or not, with when
 * it was last used (to the minute: core/merchants/key-usage.ts) and, for a rotated key in its grace period, when it
 * stops working (`expires_at`; past it the key reads as inactive).
 */
export function registerListKeys(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/keys', async (c) => {
    const keys = await listKeys(x.deps.db, c.get('merchant').id);
    const now = x.deps.clock.now();
    return ok(
      c,
      keys.map((k) => keyView(k, now)),
    );
  });
}

function keyView(k: Awaited<ReturnType<typeof listKeys>>[number], now: number) {
  return {
    id: k.id,
    kind: k.kind,
    prefix: k.prefix,
    label: k.label,
    active: k.active === 1 && (k.expires_at === null || k.expires_at > now),
    created_at: isoOrNull(k.created_at),
    deactivated_at: isoOrNull(k.deactivated_at ?? (k.expires_at !== null && k.expires_at <= now ? k.expires_at : null)),
    expires_at: isoOrNull(k.expires_at),
    last_used_at: isoOrNull(k.last_used_at),
  };
}
export type KeyView = ReturnType<typeof keyView>;
