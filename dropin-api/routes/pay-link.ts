import type { Hono } from 'hono';
import { readJson } from '../../api-kit/body.js';
import { ok } from '../../api-kit/envelope.js';
import { linkVisitSchema, visitAmountText } from '../../api-kit/link-schemas.js';
import { hostedPaymentUrl } from '../../api-kit/payment-views.js';
import { notFound } from '../../core/errors.js';
import { payLink } from '../../core/links/pay-link.js';
import type { DropinCtx, DropinEnv } from '../context.js';
import { linkOfToken } from '../link-page.js';

/**
 * POST /links/{token}/payments: the JSON twin of the link page's form, for a shop's own page or app: the same schema,
 * the same payLink, no key (the token is the link's capability, as on its page). 201 with the payment's id and
 * hosted page; 422 per field; 409 when the link takes no payment (deactivated, ended, at its limit).
 */
export function registerPayLink(app: Hono<DropinEnv>, x: DropinCtx): void {
  app.post('/links/:token/payments', async (c) => {
    x.limiter.take(`ip:${x.clientAddress(c)}`);
    const link = await linkOfToken(x.deps, c.req.param('token'));
    if (!link) throw notFound('Payment link');
    const { data } = await readJson(c, linkVisitSchema, x.deps.limits.bodyBytes);
    const payment = await payLink(x.deps, link, {
      email: data.email,
      amount: visitAmountText(data.amount),
      currency: data.currency,
      originIp: x.clientAddress(c),
    });
    const url = hostedPaymentUrl(payment, x.deps.settings.publicUrl, x.deps.settings.pageSecret);
    return ok(c, { payment_id: payment.id, hosted_payment_url: url }, 'Payment created', 201);
  });
}
