import { readJson } from '../../api-kit/body.js';
import { createLinkSchema, termsFromCreate } from '../../api-kit/link-schemas.js';
import { reusableLinkDetailSchema } from '../../api-kit/link-view-schemas.js';
import { linkDetailView } from '../../api-kit/link-views.js';
import { createLink } from '../../core/links/manage-links.js';
import { stringifyJson } from '../../core/money/decimal.js';
import { merchantCurrency } from '../../core/payments/create-payment.js';
import { bodyErrors } from '../openapi/operation.js';
import type { MerchantRoute } from '../route.js';

/** POST /links: a reusable payment link; each visit of its `url` makes a new payment (README "Reusable links"). */
export const createLinkRoute: MerchantRoute = {
  method: 'post',
  path: '/links',
  operationId: 'createLink',
  summary: 'Create a reusable payment link',
  description:
    'A fixed `amount`, or none: then the customer enters the amount on the page, between `min_amount` and `max_amount` when given. ' +
    '`currencies` limits the assets offered; `max_payments` and `ends_at` limit the link (an unpaid payment that expires frees its place). ' +
    "Each visit of `url` asks the customer's e-mail (and amount) and makes a new payment exactly as POST /payments does.",
  tag: 'Links',
  body: {
    schema: createLinkSchema,
    required: true,
    example: { name: 'Workshop seat', amount: 25, currencies: ['btc', 'ltc'], max_payments: 20 },
  },
  success: { status: 201, description: 'Link created', data: reusableLinkDetailSchema },
  errors: bodyErrors,
  handler: (deps) => async (c) => {
    const { data } = await readJson(c, createLinkSchema, deps.limits.bodyBytes);
    const link = await createLink(deps, c.get('merchant'), termsFromCreate(data, merchantCurrency(c.get('merchant'))));
    const view = linkDetailView(link, link.active ? 'active' : 'inactive', deps.settings.publicUrl, []);
    return c.body(stringifyJson({ success: true, message: 'Link created', data: view }), 201, {
      'content-type': 'application/json; charset=utf-8',
    });
  },
};
