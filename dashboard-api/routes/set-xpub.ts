import type { Hono } from 'hono';
import { readJson } from '../../api-kit/body.js';
import { ok } from '../../api-kit/envelope.js';
import { setXpub } from '../../core/addresses/xpubs.js';
import { audited } from '../audit.js';
import type { DashCtx, DashEnv } from '../context.js';
import { xpubSchema } from './preview-xpub.js';
import { firstAddresses } from './read-settings.js';

/**
 * PUT /merchants/{id}/xpub (owner): registers a live merchant's EVM account xpub (core/addresses/xpubs.ts rules:
 * live merchants only, no private keys, not one another merchant uses). Open payments keep their addresses.
 */
export function registerSetXpub(app: Hono<DashEnv>, x: DashCtx): void {
  app.put('/merchants/:merchant_id/xpub', async (c) => {
    const { data } = await readJson(c, xpubSchema, x.deps.limits.bodyBytes);
    const r = await audited(
      x,
      c,
      async (trx) => {
        const set = await setXpub(trx, x.deps.clock, c.get('merchant').id, 'evm', data.xpub);
        if (!set.ok) throw set.error;
        return set;
      },
      // An xpub is public but reveals every address: the entry keeps only its ends, enough to tell two apart.
      (set) => ({
        action: 'xpub.set',
        details: { family: 'evm', xpub: `${set.value.xpub.slice(0, 8)}...${set.value.xpub.slice(-6)}` },
      }),
    );
    return ok(
      c,
      { family: 'evm', xpub: r.value.xpub, addresses: firstAddresses(r.value.xpub) },
      'Extended public key saved',
    );
  });
}
