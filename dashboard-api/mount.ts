import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context, Hono } from 'hono';
import type { ApiDeps } from '../api-kit/deps.js';
import { staticFiles } from '../api-kit/static-files.js';
import { AppError } from '../core/errors.js';
import { PUBLIC_DIR } from '../core/paths.js';
import { registerAppManifest } from './app-manifest.js';
import { createDashboardApi } from './index.js';

/**
 * The merchant dashboard at /dashboard/: its API, its built files (public/dashboard/assets, named by content hash,
 * so browsers keep them a year) and, for every other path below /dashboard/, the page itself: the app routes in the
 * browser, so each page has its own URL and the back button works.
 */
export function mountDashboard(app: Hono, deps: ApiDeps): void {
  app.route('/dashboard/api', createDashboardApi(deps, deps.clientAddress));
  const assets = staticFiles(PUBLIC_DIR, { maxAge: 31_536_000 });
  app.get('/dashboard/assets/*', async (c) => (await assets(c, new URL(c.req.url).pathname.slice(1))) ?? c.notFound());
  registerAppManifest(app);
  app.get('/dashboard', (c) => c.redirect('/dashboard/', 301));
  const shell = async (c: Context) => {
    if (c.req.path.startsWith('/dashboard/api/')) return c.notFound();
    let html: string;
    try {
      html = await readFile(join(PUBLIC_DIR, 'dashboard', 'index.html'), 'utf8');
    } catch {
      throw new AppError(
        'UNAVAILABLE',
        'The dashboard is not built: run `npm run build:dashboard` (npm start builds it)',
      );
    }
    // The CSP, nosniff and frame rules come with every response (api-kit/security-headers.ts).
    return c.body(html, 200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    });
  };
  app.get('/dashboard/', shell);
  app.get('/dashboard/*', shell);
}
