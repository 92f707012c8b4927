import { readJson } from '../../api-kit/body.js';
import { termsWithUpdate, updateLinkSchema } from '../../api-kit/link-schemas.js';
import { reusableLinkDetailSchema } from '../../api-kit/link-view-schemas.js';
import { linkDetailView } from '../../api-kit/link-views.js';
import { idParam } from '../../api-kit/path-params.js';
import { linkTotals } from '../../core/links/links.js';
import { changeLink, withStatus } from '../../core/links/manage-links.js';
import { stringifyJson } from '../../core/money/decimal.js';
import { bodyErrors } from '../openapi/operation.js';
import type { MerchantRoute } from '../route.js';

/** PATCH /links/{link_id}: changes a link; `"active": false` stops it at once (its page says so, no payment). */
export const updateLinkRoute: MerchantRoute = {
  method: 'patch',
  path: '/links/{link_id}',
  operationId: 'updateLink',
  summary: 'Change or deactivate a reusable payment link',
  description:
    "Any field of POST /links; `null` clears an optional one. Payments already made are not changed. Another merchant's link is a 404.",
  tag: 'Links',
  pathParams: { link_id: { description: 'Link id', example: 'plk_4v9k2m8q1x7c3b5n0z6w' } },
  body: { schema: updateLinkSchema, required: true, example: { active: false } },
  success: { status: 200, description: 'Link updated', data: reusableLinkDetailSchema },
  errors: [...bodyErrors, 404],
  handler: (deps) => async (c) => {
    const id = idParam(c, 'link_id', 'Payment link');
    const { data } = await readJson(c, updateLinkSchema, deps.limits.bodyBytes);
    const link = await changeLink(deps, c.get('merchant'), id, (t) => termsWithUpdate(t, data));
    const { status } = await withStatus(deps, link);
    const view = linkDetailView(link, status, deps.settings.publicUrl, await linkTotals(deps, link.id));
    return c.body(stringifyJson({ success: true, message: 'Link updated', data: view }), 200, {
      'content-type': 'application/json; charset=utf-8',
    });
  },
};
