import type { Context, Hono } from 'hono';
import { validBody } from '../api-kit/body.js';
import type { ApiDeps } from '../api-kit/deps.js';
import { linkVisitSchema, visitAmountText } from '../api-kit/link-schemas.js';
import { requestHeader } from '../api-kit/node-request.js';
import { hostedPaymentUrl } from '../api-kit/payment-views.js';
import { customerLocale } from '../api-kit/price-text.js';
import type { RateLimiter } from '../api-kit/rate-limit.js';
import { AppError } from '../core/errors.js';
import { linkStatus, statusMessages } from '../core/links/links.js';
import { linkAssets, payLink } from '../core/links/pay-link.js';
import { countHeldPlaces, findLinkByToken, type PaymentLink } from '../core/links/store.js';
import { getMerchant } from '../core/merchants/merchants.js';
import { type LinkFormState, linkClosedHtml, linkFormHtml, linkNotFoundHtml } from './link-page-html.js';

/** A link token as newLinkRow makes it (24 random bytes, base64url): anything else is not looked up. */
export const LINK_TOKEN_RE = /^[A-Za-z0-9_-]{32}$/;

export const HTML = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
};

/** The link a path's token names, or undefined (unknown and malformed tokens read alike). */
export async function linkOfToken(deps: ApiDeps, token: string): Promise<PaymentLink | undefined> {
  return LINK_TOKEN_RE.test(token) ? findLinkByToken(deps.db, token) : undefined;
}

/** Why the link takes no payment now, or null when it does. */
async function closedMessage(deps: ApiDeps, link: PaymentLink): Promise<string | null> {
  const merchant = await getMerchant(deps.db, link.merchant_id);
  if (merchant?.active !== 1) return statusMessages.inactive;
  const held = link.max_payments === null ? 0 : await countHeldPlaces(deps.db, link.id);
  const status = linkStatus(link, deps.clock.now(), held);
  return status === 'active' ? null : statusMessages[status];
}

async function formPage(c: Context, deps: ApiDeps, link: PaymentLink, state: LinkFormState, status: 200 | 409 | 422) {
  const merchant = await getMerchant(deps.db, link.merchant_id);
  const assets = merchant ? linkAssets(deps, merchant.mode, link) : [];
  const locale = customerLocale(c.req.header('accept-language'));
  return c.body(linkFormHtml(link, assets, { ...state, locale }), status, HTML);
}

/** Reads a page form's fields named in `keys` (application/x-www-form-urlencoded), within the body limit. */
export async function readForm(
  c: Context,
  limitBytes: number,
  keys: readonly string[] = ['email', 'amount', 'currency'],
): Promise<Record<string, string>> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(requestHeader(c, 'content-type') ?? ''))
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the form as application/x-www-form-urlencoded');
  if (Number(requestHeader(c, 'content-length') ?? '0') > limitBytes)
    throw new AppError('PAYLOAD_TOO_LARGE', `Body over ${limitBytes} bytes`);
  const raw = await c.req.text();
  if (Buffer.byteLength(raw) > limitBytes) throw new AppError('PAYLOAD_TOO_LARGE', `Body over ${limitBytes} bytes`);
  const fields: Record<string, string> = Object.create(null);
  for (const [k, v] of new URLSearchParams(raw)) if (keys.includes(k)) fields[k] = v;
  return fields;
}

/**
 * The public page of a reusable link, `/l/{token}` (README "Reusable links"): GET shows the form, or says the link
 * takes no payment; POST validates the visit with the API's own schema and makes the payment through payLink, then
 * sends the customer to its hosted page (the drop-in's components, widget/page.ts). A refused visit shows the form
 * again with each field's message and writes nothing.
 */
export function registerLinkPage(app: Hono, deps: ApiDeps, limiter: RateLimiter): void {
  app.get('/l/:token', async (c) => {
    limiter.take(`ip:${deps.clientAddress(c)}`);
    const link = await linkOfToken(deps, c.req.param('token'));
    if (!link) return c.body(linkNotFoundHtml, 404, HTML);
    const closed = await closedMessage(deps, link);
    if (closed) return c.body(linkClosedHtml(link.name, closed), 200, HTML);
    return formPage(c, deps, link, {}, 200);
  });

  app.post('/l/:token', async (c) => {
    limiter.take(`ip:${deps.clientAddress(c)}`);
    const link = await linkOfToken(deps, c.req.param('token'));
    if (!link) return c.body(linkNotFoundHtml, 404, HTML);
    const fields = await readForm(c, deps.limits.bodyBytes);
    const state: LinkFormState = { email: fields.email, amount: fields.amount, currency: fields.currency };
    try {
      const visit = validBody(linkVisitSchema, {
        email: fields.email ?? '',
        ...(link.price_amount === null ? { amount: fields.amount ?? '' } : {}),
        ...(fields.currency ? { currency: fields.currency } : {}),
      });
      const payment = await payLink(deps, link, {
        email: visit.email,
        amount: visitAmountText(visit.amount),
        currency: visit.currency,
        originIp: deps.clientAddress(c),
      });
      return c.redirect(hostedPaymentUrl(payment, deps.settings.publicUrl, deps.settings.pageSecret), 303);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      if (e.code === 'VALIDATION_FAILED') return formPage(c, deps, link, { ...state, errors: e.errors }, 422);
      if (e.code === 'CONFLICT') return c.body(linkClosedHtml(link.name, e.message), 409, HTML);
      throw e;
    }
  });
}
