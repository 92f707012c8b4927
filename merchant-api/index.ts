import { type Context, Hono } from 'hono';
import type { ApiDeps } from '../api-kit/deps.js';
import { RateLimiter } from '../api-kit/rate-limit.js';
import { answerOtherMethods, refuseUnknownRoutes } from '../api-kit/routes.js';
import { limitPerAddress, type MerchantEnv, requireSecretKey } from './auth.js';
import { honoPath, servingOrder } from './route.js';
import { merchantRoutes } from './route-list.js';
import { registerOpenApiJson } from './routes/openapi-json.js';

/**
 * The merchant API under /api/v1 (API §4), secret `sk_` keys only. One route per file in routes/, all declared in
 * route-list.ts, which the OpenAPI document is built from too.
 */
export function createMerchantApi(deps: ApiDeps, clientAddress: (c: Context) => string): Hono<MerchantEnv> {
  const app = new Hono<MerchantEnv>();
  const limiter = new RateLimiter(deps.limits.ratePerSecond, () => deps.clock.now());
  app.use('*', limitPerAddress(limiter, clientAddress));
  // The only route without a key: registered before the key middleware with its 405 and OPTIONS answers, it answers
  // without passing on.
  registerOpenApiJson(app, deps.settings.publicUrl);
  answerOtherMethods(app);
  // Unknown paths are 404 before the key is asked for (README "API reference").
  app.use('*', refuseUnknownRoutes, requireSecretKey(deps, limiter));

  for (const route of servingOrder(merchantRoutes))
    app.on(route.method.toUpperCase(), honoPath(route.path), route.handler(deps, clientAddress));
  answerOtherMethods(app);
  return app;
}
