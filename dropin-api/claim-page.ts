import type { Context, Hono } from 'hono';
import type { ApiDeps } from '../api-kit/deps.js';
import type { RateLimiter } from '../api-kit/rate-limit.js';
import { AppError } from '../core/errors.js';
import { claimRefundAddress, readClaim } from '../core/refunds/claim-address.js';
import { explorerOf } from '../core/refunds/refund.js';
import { TokenBuckets } from '../core/token-buckets.js';
import { claimDoneHtml, claimFormHtml, claimLocale, claimNotFoundHtml, claimRefusedHtml } from './claim-page-html.js';
import { HTML, readForm } from './link-page.js';

/** Address submissions per claim link per minute, from everyone: a link is used once, retries after a typo are few. */
export const CLAIM_POSTS_PER_MINUTE = 5;

/**
 * The refund claim page, `/refund/{token}` (issue 30 item 2): GET shows the refund and the address form, or why the
 * link takes no address (410: used, expired, or the refund moved on; 404: unknown); POST checks the address for the
 * asset's network (422 with the form again, nothing written) and records it once, for the merchant to confirm. POSTs
 * are limited per client address (the service's rate) and per link (CLAIM_POSTS_PER_MINUTE).
 */
export function registerClaimPage(app: Hono, deps: ApiDeps, limiter: RateLimiter): void {
  const perLink = new TokenBuckets(() => deps.clock.now());
  const locale = (c: Context, paidIn: string | null) => claimLocale(c.req.header('accept-language'), paidIn);

  app.get('/refund/:token', async (c) => {
    limiter.take(`ip:${deps.clientAddress(c)}`);
    const claim = await readClaim(deps.db, deps.clock, c.req.param('token'));
    if (!claim) return c.body(claimNotFoundHtml(locale(c, null)), 404, HTML);
    const lang = locale(c, claim.locale);
    if (claim.state !== 'open') return c.body(claimRefusedHtml(claim, lang, claim.state), 410, HTML);
    return c.body(claimFormHtml(claim, lang), 200, HTML);
  });

  app.post('/refund/:token', async (c) => {
    const token = c.req.param('token');
    limiter.take(`ip:${deps.clientAddress(c)}`);
    const wait = perLink.take(`claim:${token}`, CLAIM_POSTS_PER_MINUTE, 60_000);
    if (wait > 0)
      throw new AppError('RATE_LIMITED', `Too many tries: at most ${CLAIM_POSTS_PER_MINUTE} a minute per link`, {
        retryAfter: wait,
      });
    const { address = '' } = await readForm(c, deps.limits.bodyBytes, ['address']);
    const r = await claimRefundAddress(
      deps.db,
      deps.clock,
      deps.catalog,
      (x) => explorerOf(deps.chains, x),
      token,
      address,
    );
    if (r.ok) {
      deps.webhooks.wake();
      return c.body(claimDoneHtml(r.value, locale(c, r.value.locale)), 200, HTML);
    }
    const claim = await readClaim(deps.db, deps.clock, token);
    if (!claim) return c.body(claimNotFoundHtml(locale(c, null)), 404, HTML);
    const lang = locale(c, claim.locale);
    if (r.error.state === 'invalid') return c.body(claimFormHtml(claim, lang, { address }), 422, HTML);
    const state = claim.state === 'open' ? 'closed' : claim.state;
    return c.body(claimRefusedHtml(claim, lang, state), 410, HTML);
  });
}
