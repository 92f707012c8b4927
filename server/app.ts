import { Hono } from 'hono';
import type { ApiDeps } from '../api-kit/deps.js';
import { renderError } from '../api-kit/errors.js';
import { requestHeader } from '../api-kit/node-request.js';
import { securityHeaders } from '../api-kit/security-headers.js';
import type { ChainWatchers } from '../core/chains/watchers.js';
import { AppError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { mountDashboard } from '../dashboard-api/mount.js';
import { mountDropin } from '../dropin-api/mount.js';
import { registerDocsPage } from '../merchant-api/docs-page.js';
import { createMerchantApi } from '../merchant-api/index.js';
import { registerMetricsRoute, type ServiceMetrics } from './metrics.js';
import { registerHealthRoutes } from './readiness.js';

// Request ids need to be unique, not secret: a random per-process prefix and a counter cost nothing per request.
const requestIdPrefix = newId('req', 10);
let requestCounter = 0;
function nextRequestId(): string {
  requestCounter += 1;
  return `${requestIdPrefix}${requestCounter.toString(36)}`;
}

/**
 * Composition of the HTTP surface: the merchant API, and everything browser-facing (drop-in API, hosted page, demo,
 * static files). Every failure, from any layer, renders through one error handler in the API's envelope (docs/architecture.md); unknown
 * paths are 404 in the same envelope.
 */
export function createApp(
  deps: ApiDeps,
  opts: { watchers: ChainWatchers; metrics?: { metrics: ServiceMetrics; token: string | undefined; host: string } },
): Hono {
  const app = new Hono();
  // First, so it times the whole request, error rendering included.
  if (opts.metrics) app.use('*', opts.metrics.metrics.middleware);
  const secure = securityHeaders(new URL(deps.settings.publicUrl).origin);
  app.use('*', async (c, next) => {
    const id = requestHeader(c, 'x-request-id')?.slice(0, 64) ?? nextRequestId();
    c.set('requestId' as never, id as never);
    // Set before the handler runs: a header added after the Response exists makes Hono rebuild it as a stream.
    c.header('x-request-id', id);
    secure(c);
    await next();
  });
  const onError = renderError(deps.logger);
  app.onError(onError);
  app.notFound((c) => onError(new AppError('NOT_FOUND', `No route for ${c.req.method} ${c.req.path}`), c));

  registerHealthRoutes(app, deps.db, opts.watchers, deps.rates.live);

  if (opts.metrics) registerMetricsRoute(app, opts.metrics.metrics, opts.metrics);
  app.route('/api/v1', createMerchantApi(deps, deps.clientAddress));
  registerDocsPage(app, deps.settings.publicUrl);
  mountDropin(app, deps);
  mountDashboard(app, deps);
  return app;
}
