import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../api-kit/body.js';
import { ok } from '../../api-kit/envelope.js';
import { parseXpub } from '../../core/addresses/hd.js';
import type { DashCtx, DashEnv } from '../context.js';
import { firstAddresses } from './read-settings.js';

export const xpubSchema = z.strictObject({ xpub: z.string().trim().min(1, 'Required').max(200) });

/**
 * POST /merchants/{id}/xpub/preview (owner): the first three addresses an xpub gives, before anything is saved, so
 * the merchant compares them with the wallet. A private key (xprv) is refused without being echoed.
 */
export function registerPreviewXpub(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/xpub/preview', async (c) => {
    const { data } = await readJson(c, xpubSchema, x.deps.limits.bodyBytes);
    const parsed = parseXpub(data.xpub);
    if (!parsed.ok) throw parsed.error;
    const xpub = parsed.value.publicExtendedKey;
    return ok(c, { family: 'evm', xpub, depth: parsed.value.depth, addresses: firstAddresses(xpub) });
  });
}
