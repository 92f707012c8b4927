import { reusableLinkDetailSchema } from '../../api-kit/link-view-schemas.js';
import { linkDetailView } from '../../api-kit/link-views.js';
import { idParam } from '../../api-kit/path-params.js';
import { notFound } from '../../core/errors.js';
import { linkTotals } from '../../core/links/links.js';
import { withStatus } from '../../core/links/manage-links.js';
import { findMerchantLink } from '../../core/links/store.js';
import { stringifyJson } from '../../core/money/decimal.js';
import type { MerchantRoute } from '../route.js';

/** GET /links/{link_id}: a link with its payment counts and paid totals; another merchant's link is a 404. */
export const getLinkRoute: MerchantRoute = {
  method: 'get',
  path: '/links/{link_id}',
  operationId: 'getLink',
  summary: 'Read a reusable payment link and its totals',
  description:
    "Its payments are listed by GET /payments like any other (their `order_description` is the link's name). Another merchant's link is a 404.",
  tag: 'Links',
  pathParams: { link_id: { description: 'Link id', example: 'plk_4v9k2m8q1x7c3b5n0z6w' } },
  success: { status: 200, description: 'The link', data: reusableLinkDetailSchema },
  errors: [404],
  handler: (deps) => async (c) => {
    const link = await findMerchantLink(deps.db, c.get('merchant').id, idParam(c, 'link_id', 'Payment link'));
    if (!link) throw notFound('Payment link');
    const { status } = await withStatus(deps, link);
    const view = linkDetailView(link, status, deps.settings.publicUrl, await linkTotals(deps, link.id));
    return c.body(stringifyJson({ success: true, message: 'OK', data: view }), 200, {
      'content-type': 'application/json; charset=utf-8',
    });
  },
};
