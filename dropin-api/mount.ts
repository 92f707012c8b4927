import type { EventEmitter } from 'node:events';
import type { Context, Hono } from 'hono';
import type { ApiDeps } from '../api-kit/deps.js';
import { pageTokenValid } from '../api-kit/page-token.js';
import { clientAddress } from '../api-kit/client-address.js';
import { PUBLIC_DIR } from '../core/paths.js';
import { demoPublicKey } from './demo.js';
import { hostedPageHtml, invalidPageHtml } from './hosted-page.js';
import { createDropinApi } from './index.js';
import { staticFiles } from './static-files.js';


/**
 * Everything browser-facing: the drop-in API, the hosted payment page, the demo storefront's config and the
 * static files of public/ (the built drop-in, the demo, asset icons).
 */
export function mountDropin(app: Hono, deps: ApiDeps, changes: EventEmitter): void {
  const selfOrigins = (c: Context) => [new URL(deps.settings.publicUrl).origin, new URL(c.req.url).origin];
  app.route('/api/dropin/v1', createDropinApi(deps, { changes, clientAddress, selfOrigins }));

  const files = staticFiles(PUBLIC_DIR, { maxAge: 300 });
  const serve = async (c: Context, rel: string) => (await files(c, rel)) ?? c.notFound();
  // Paths are checked against public/ by staticFiles (no escaping it with ../).
  app.get('/icons/*', (c) => serve(c, decodeURIComponent(c.req.path.slice(1))));
  app.get('/dropin/v1/*', (c) => serve(c, decodeURIComponent(c.req.path.slice(1))));
  app.get('/demo', (c) => c.redirect('/demo/', 301));
  app.get('/demo/', (c) => serve(c, 'demo/index.html'));
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

  app.get('/pay/:payment_id', async (c) => {
    const id = c.req.param('payment_id');
    const t = c.req.query('t') ?? '';
    const known = /^[a-z0-9_]{1,64}$/.test(id) && pageTokenValid(id, t, deps.settings.pageSecret);
    const exists =
      known &&
      (await deps.db.selectFrom('payments').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
    const headers = {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
    };
    return c.body(exists ? hostedPageHtml : invalidPageHtml, exists ? 200 : 404, headers);
  });
}
