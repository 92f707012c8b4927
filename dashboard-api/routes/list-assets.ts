import type { Hono } from 'hono';
import { ok } from '../../api-kit/envelope.js';
import type { DashCtx, DashEnv } from '../context.js';

/** GET /merchants/{id}/assets: the catalog's assets, for the payment list's asset filter and the checkout try. */
export function registerListAssets(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/assets', (c) =>
    ok(
      c,
      x.deps.catalog.list().map((a) => ({ code: a.code, name: a.name, network: a.network })),
    ),
  );
}
