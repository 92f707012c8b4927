import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { viewKeys } from '../../../core/chains/families.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';

const moneroKeysSchema = z.strictObject({
  address: z.string().trim().min(1, 'Required').max(200),
  view_key: z.string().trim().min(1, 'Required').max(1000),
});

/**
 * PUT /merchants/{id}/monero-keys (owner): registers a live merchant's Monero primary address and private view key,
 * with the checks of `admin viewkey set` (the family's `viewKeys`, core/chains/families.ts: the key belongs to the
 * address; a spend key or a seed is refused without being echoed). Answers the first subaddress to find in the wallet; never the key.
 */
export function registerSetMoneroKeys(app: Hono<DashEnv>, x: DashCtx): void {
  app.put('/merchants/:merchant_id/monero-keys', async (c) => {
    const { data } = await readJson(c, moneroKeysSchema, x.deps.limits.bodyBytes);
    const r = await audited(
      x,
      c,
      async (trx) => {
        const set = await viewKeys.set(trx, x.deps.clock, c.get('merchant').id, data.address, data.view_key);
        if (!set.ok) throw set.error;
        return set;
      },
      // The address is public; the view key never enters the log. The ends tell two addresses apart.
      (set) => ({
        action: 'monero_keys.set',
        details: { address: `${set.value.address.slice(0, 8)}...${set.value.address.slice(-6)}` },
      }),
    );
    return ok(
      c,
      { address: r.value.address, first_subaddress: r.value.firstSubaddress, next_index: r.value.nextIndex },
      'Monero address and view key saved',
    );
  });
}
