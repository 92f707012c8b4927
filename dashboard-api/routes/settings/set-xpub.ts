import type { Hono } from 'hono';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { setXpub } from '../../../core/addresses/xpubs.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { xpubSchema } from './preview-xpub.js';
import { firstAddresses, keyNet } from './read-settings.js';

/**
 * PUT /merchants/{id}/xpub (owner): registers a live merchant's account key for EVM or a Bitcoin-family chain (`chain`),
 * by the admin CLI's rules (core/addresses/xpubs.ts: live merchants only, no private keys, the chain's network and
 * script type, not one another merchant uses). Open payments keep their addresses.
 */
export function registerSetXpub(app: Hono<DashEnv>, x: DashCtx): void {
  app.put('/merchants/:merchant_id/xpub', async (c) => {
    const { data } = await readJson(c, xpubSchema, x.deps.limits.bodyBytes);
    const net = keyNet(x, data.chain);
    const r = await audited(
      x,
      c,
      async (trx) => {
        const set = await setXpub(trx, x.deps.clock, c.get('merchant').id, data.chain, data.xpub, net);
        if (!set.ok) throw set.error;
        return set;
      },
      // An xpub is public but reveals every address: the entry keeps only its ends, enough to tell two apart.
      (set) => ({
        action: 'xpub.set',
        details: { family: data.chain, xpub: `${set.value.xpub.slice(0, 8)}...${set.value.xpub.slice(-6)}` },
      }),
    );
    return ok(
      c,
      { family: data.chain, xpub: r.value.xpub, addresses: firstAddresses(r.value.xpub, data.chain, net) },
      'Extended public key saved',
    );
  });
}
