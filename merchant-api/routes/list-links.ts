import { readQuery } from '../../api-kit/body.js';
import { listLinksQuerySchema } from '../../api-kit/link-schemas.js';
import { reusableLinkListSchema } from '../../api-kit/link-view-schemas.js';
import { linkView } from '../../api-kit/link-views.js';
import { withStatus } from '../../core/links/manage-links.js';
import { listLinks } from '../../core/links/store.js';
import { stringifyJson } from '../../core/money/decimal.js';
import type { MerchantRoute } from '../route.js';

/** GET /links: the merchant's reusable links, newest first in keyset pages. */
export const listLinksRoute: MerchantRoute = {
  method: 'get',
  path: '/links',
  operationId: 'listLinks',
  summary: 'List reusable payment links',
  description: 'Newest first in keyset pages: pass `next_cursor` as `cursor` for the next page.',
  tag: 'Links',
  query: listLinksQuerySchema,
  success: { status: 200, description: 'A page of links', data: reusableLinkListSchema },
  errors: [422],
  handler: (deps) => async (c) => {
    const q = readQuery(c, listLinksQuerySchema);
    const page = await listLinks(deps.db, c.get('merchant').id, q);
    const links = await Promise.all(page.links.map((l) => withStatus(deps, l)));
    const data = {
      links: links.map((l) => linkView(l.link, l.status, deps.settings.publicUrl)),
      next_cursor: page.nextCursor,
    };
    return c.body(stringifyJson({ success: true, message: 'OK', data }), 200, {
      'content-type': 'application/json; charset=utf-8',
    });
  },
};
