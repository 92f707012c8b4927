import type { Hono } from 'hono';
import { readJson, readQuery } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { createLinkSchema, listLinksQuerySchema, termsFromCreate } from '../../../api-kit/link-schemas.js';
import { linkDetailView, linkView } from '../../../api-kit/link-views.js';
import { createLink, withStatus } from '../../../core/links/manage-links.js';
import { listLinks } from '../../../core/links/store.js';
import { merchantCurrency } from '../../../core/payments/create-payment.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';

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
    // Money-moving like a payment link: audited in the link's own transaction.
    const link = await audited(
      x,
      c,
      (trx) =>
        createLink(
          { ...x.deps, db: trx },
          c.get('merchant'),
          termsFromCreate(data, merchantCurrency(c.get('merchant'))),
        ),
      (l) => ({ action: 'link.create', target: l.id, details: { name: l.name, active: l.active === 1 } }),
    );
    const { status } = await withStatus(x.deps, link);
    return ok(c, linkDetailView(link, status, x.deps.settings.publicUrl, []), 'Link created', 201);
  });
}
