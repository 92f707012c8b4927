import type { Hono } from 'hono';
import { readJson, readQuery } from '../../api-kit/body.js';
import { ok } from '../../api-kit/envelope.js';
import { createLinkSchema, termsFromCreate } from '../../api-kit/link-schemas.js';
import { linkDetailView, linkView } from '../../api-kit/link-views.js';
import { createLink, withStatus } from '../../core/links/manage-links.js';
import { listLinks } from '../../core/links/store.js';
import { merchantCurrency } from '../../core/payments/create-payment.js';
import { listLinksQuerySchema } from '../../merchant-api/routes/list-links.js';
import type { DashCtx, DashEnv } from '../context.js';

/**
 * GET /merchants/{id}/links: the merchant's reusable links; POST (owner): a new one, with the same body and rules as
 * POST /api/v1/links.
 */
export function registerListLinks(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/links', async (c) => {
    const q = readQuery(c, listLinksQuerySchema);
    const page = await listLinks(x.deps.db, c.get('merchant').id, q);
    const links = await Promise.all(page.links.map((l) => withStatus(x.deps, l)));
    return ok(c, {
      links: links.map((l) => linkView(l.link, l.status, x.deps.settings.publicUrl)),
      next_cursor: page.nextCursor,
    });
  });
  app.post('/merchants/:merchant_id/links', async (c) => {
    const { data } = await readJson(c, createLinkSchema, x.deps.limits.bodyBytes);
    const link = await createLink(
      x.deps,
      c.get('merchant'),
      termsFromCreate(data, merchantCurrency(c.get('merchant'))),
    );
    const { status } = await withStatus(x.deps, link);
    return ok(c, linkDetailView(link, status, x.deps.settings.publicUrl, []), 'Link created', 201);
  });
}
