import type { Hono } from 'hono';
import { ok } from '../../api-kit/envelope.js';
import { canGoLive, offeredAssets } from '../../core/catalog/availability.js';
import type { DashCtx, DashEnv } from '../context.js';

/**
 * GET /merchants/{id}/assets: the assets this merchant can be offered in its mode, for the payment list's filter,
 * Payment links and Try: a test merchant every sandbox asset, `test_only` marking those no live set-up can take
 * (TRX, USDTTRC20, SOL, XRP); a live merchant only the assets of networks CHAINS_CONFIG configures, so no picker
 * offers a choice that can only fail.
 */
export function registerListAssets(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/assets', (c) =>
    ok(c, offeredAssets(x.deps.catalog.list(), x.deps.chains, c.get('merchant').mode).map(assetOptionView)),
  );
}

function assetOptionView(a: ReturnType<typeof offeredAssets>[number]) {
  return { code: a.code, name: a.name, network: a.network, test_only: !canGoLive(a) };
}
export type AssetOption = ReturnType<typeof assetOptionView>;
