import type { Context, Hono } from 'hono';
import type { ApiDeps } from '../api-kit/deps.js';
import { RateLimiter } from '../api-kit/rate-limit.js';
import { staticFiles } from '../api-kit/static-files.js';
import { pageTokenValid } from '../core/checkout/page-token.js';
import { PUBLIC_DIR } from '../core/paths.js';
import { findPayment } from '../core/payments/store.js';
import { registerClaimPage } from './claim-page.js';
import { demoPublicKey } from './demo.js';
import { hostedPageHtml, invalidPageHtml } from './hosted-page.js';
import { createDropinApi } from './index.js';
import { registerLinkPage } from './link-page.js';

/**
 * The Link header of the demo storefront: what demo.js loads next, fetched with the page instead of one round trip
 * after another (page, demo.js, then config.js and checkout.js, then checkout.module.js). demo.js is the page's
 * own file (a relative path); the rest are the service's, named by its absolute address (PUBLIC_URL), the origin
 * demo.js loads them from: a relative path would resolve against the page's origin, and a page served on another
 * one (a shop's own hostname) would download them twice. `crossorigin` because demo.js loads them in CORS mode,
 * as the drop-in's session request goes: a preload of another mode is not used, and its connection is not shared.
 */
export function demoPreloads(publicUrl: string): string {
  const at = (path: string) => `${publicUrl}${path}`;
  return [
    '</demo/demo.js>; rel=preload; as=script',
    `<${at('/demo/config.js')}>; rel=preload; as=script; crossorigin`,
    `<${at('/dropin/v1/checkout.js')}>; rel=preload; as=script; crossorigin`,
    `<${at('/dropin/v1/checkout.module.js')}>; rel=modulepreload; crossorigin`,
  ].join(', ');
}

/**
 * Everything browser-facing: the drop-in API, the hosted payment page, the demo storefront's config and the
 * static files of public/ (the built drop-in, the demo, asset icons).
 */
export function mountDropin(app: Hono, deps: ApiDeps): void {
  // The service's own pages (hosted page, demo) are at PUBLIC_URL, never at whatever a request's Host header says:
  // a Host-derived origin would let any page that sends a matching Host pass as "self".
  const selfOrigins = () => [new URL(deps.settings.publicUrl).origin];
  app.route('/api/dropin/v1', createDropinApi(deps, { clientAddress: deps.clientAddress, selfOrigins }));

  const files = staticFiles(PUBLIC_DIR, { maxAge: 300 });
  // Asset icons (GET /currencies `icon_url`) never change under one name, so browsers may keep them a day.
  const icons = staticFiles(PUBLIC_DIR, { maxAge: 86_400 });
  const serve = async (c: Context, rel: string) => (await files(c, rel)) ?? c.notFound();
  // The path as sent (Hono's `c.req.path` is already partly decoded): staticFiles decodes it once and keeps it
  // inside public/ (no escaping it with ../).
  const sent = (c: Context) => new URL(c.req.url).pathname.slice(1);
  app.get('/icons/*', async (c) => (await icons(c, sent(c))) ?? c.notFound());
  app.get('/dropin/v1/*', (c) => serve(c, sent(c)));
  app.get('/demo', (c) => c.redirect('/demo/', 301));
  const preloads = demoPreloads(deps.settings.publicUrl);
  app.get('/demo/', (c) => {
    c.header('link', preloads);
    return serve(c, 'demo/index.html');
  });
  // The demo's public key: generated at runtime, so it cannot be a static file.
  app.get('/demo/config.js', async (c) => {
    const key = await demoPublicKey(deps.db);
    const body = `window.DEMO_CONFIG = ${JSON.stringify({ publicKey: key, serviceUrl: deps.settings.publicUrl })};\n`;
    return c.body(body, 200, {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'no-store',
      'access-control-allow-origin': '*',
    });
  });
  app.get('/demo/:file', (c) => serve(c, `demo/${c.req.param('file')}`));

  registerLinkPage(app, deps, new RateLimiter(deps.limits.ratePerSecond, () => deps.clock.now()));
  registerClaimPage(app, deps, new RateLimiter(deps.limits.ratePerSecond, () => deps.clock.now()));

  app.get('/pay/:payment_id', async (c) => {
    const id = c.req.param('payment_id');
    const t = c.req.query('t') ?? '';
    const known = /^[a-z0-9_]{1,64}$/.test(id) && pageTokenValid(id, t, deps.settings.pageSecret);
    const exists = known && (await findPayment(deps.db, id)) !== undefined;
    // Content-Security-Policy, nosniff and frame rules come with every response (api-kit/security-headers.ts).
    const headers = {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    };
    return c.body(exists ? hostedPageHtml : invalidPageHtml, exists ? 200 : 404, headers);
  });
}
