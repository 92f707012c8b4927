import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { type KeyChain, keyChains, keyPath, parseKey } from '../../../core/addresses/xpubs.js';
import type { KeyNet } from '../../../core/chains/families.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { firstAddresses, keyNet } from './read-settings.js';

export const xpubSchema = z.strictObject({
  xpub: z.string().trim().min(1, 'Required').max(200),
  /** What the key serves: every EVM network, or one Bitcoin-family chain (as `admin xpub set --chain`). */
  chain: z.enum(keyChains, { error: `Must be one of ${keyChains.join(', ')}` }).default('evm'),
});

/** A pasted key as it was read, with its account path and the first three addresses it gives. */
export function keyPreviewView(chain: KeyChain, net: KeyNet, xpub: string, depth: number) {
  return { family: chain, xpub, depth, path: keyPath(chain, net), addresses: firstAddresses(xpub, chain, net) };
}

/**
 * POST /merchants/{id}/xpub/preview (owner): the first three addresses a key gives, before anything is saved, so
 * the merchant compares them with the wallet. The admin CLI's checks (core/addresses/xpubs.ts `parseKey`): a private
 * key is refused without being echoed; a Bitcoin-family key must fit its chain's network and script type.
 */
export function registerPreviewXpub(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/xpub/preview', async (c) => {
    const { data } = await readJson(c, xpubSchema, x.deps.limits.bodyBytes);
    const net = keyNet(x, data.chain);
    const parsed = parseKey(data.chain, net, data.xpub);
    if (!parsed.ok) throw parsed.error;
    const { xpub, depth } = parsed.value;
    return ok(c, keyPreviewView(data.chain, net, xpub, depth));
  });
}
