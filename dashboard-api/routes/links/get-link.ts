import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson, readQuery } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { termsWithUpdate, updateLinkSchema } from '../../../api-kit/link-schemas.js';
import { linkDetailView } from '../../../api-kit/link-views.js';
import { idParam } from '../../../api-kit/path-params.js';
import { notFound } from '../../../core/errors.js';
import { linkTotals } from '../../../core/links/links.js';
import { changeLink, withStatus } from '../../../core/links/manage-links.js';
import { findMerchantLink, listLinkPayments, type PaymentLink } from '../../../core/links/store.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { paymentRowView } from '../../views.js';

const linkPaymentsQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
});

/** A link with its totals and QR code, and a page of its payments (newest first). */
export async function linkDetailAnswer(x: DashCtx, link: PaymentLink, page: z.infer<typeof linkPaymentsQuerySchema>) {
  const { status } = await withStatus(x.deps, link);
  const payments = await listLinkPayments(x.deps.db, link.id, page);
  return {
    link: linkDetailView(link, status, x.deps.settings.publicUrl, await linkTotals(x.deps, link.id)),
    payments: payments.payments.map(paymentRowView),
    next_cursor: payments.nextCursor,
  };
}

/**
 * GET /merchants/{id}/links/{link_id}: a link with its totals, a QR code of its URL for print, and a page of its
 * payments (newest first); PATCH (owner): a change, as PATCH /api/v1/links/{link_id}. Another merchant's link is 404.
 */
export function registerGetLink(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/links/:link_id', async (c) => {
    const q = readQuery(c, linkPaymentsQuerySchema);
    const link = await findMerchantLink(x.deps.db, c.get('merchant').id, idParam(c, 'link_id', 'Payment link'));
    if (!link) throw notFound('Payment link');
    return ok(c, await linkDetailAnswer(x, link, q));
  });
  app.patch('/merchants/:merchant_id/links/:link_id', async (c) => {
    const id = idParam(c, 'link_id', 'Payment link');
    const { data } = await readJson(c, updateLinkSchema, x.deps.limits.bodyBytes);
    const link = await audited(
      x,
      c,
      (trx) => changeLink({ ...x.deps, db: trx }, c.get('merchant'), id, (t) => termsWithUpdate(t, data)),
      (l) => ({ action: 'link.update', target: l.id, details: { changed: Object.keys(data), active: l.active === 1 } }),
    );
    return ok(c, await linkDetailAnswer(x, link, { limit: 50 }), 'Link updated');
  });
}
