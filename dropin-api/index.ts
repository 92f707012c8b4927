import type { EventEmitter } from 'node:events';
import { type Context, Hono } from 'hono';
import type { ApiDeps } from '../api-kit/deps.js';
import { RateLimiter } from '../api-kit/rate-limit.js';
import { route } from '../api-kit/routes.js';
import { type DropinCtx, type DropinEnv, requireCheckout, requirePublicKey } from './context.js';
import { dropinCors } from './cors.js';
import { gzipJson } from './gzip-json.js';
import { chooseCurrencyHandler } from './routes/choose-currency.js';
import { createSessionHandler } from './routes/create-session.js';
import { listCurrenciesHandler, sessionCurrenciesHandler } from './routes/currencies.js';
import { eventsHandler } from './routes/events.js';
import { readSessionHandler } from './routes/read-session.js';
import { simulateHandler } from './routes/simulate.js';

export interface DropinApiOptions {
  changes: EventEmitter;
  clientAddress: (c: Context) => string;
  /** Origins of the service's own pages (hosted page, demo): PUBLIC_URL's. */
  selfOrigins: () => string[];
}

/**
 * The drop-in API under /api/dropin/v1 (DESIGN.md drop-in contract): `dk_` keys create sessions; everything
 * after that is opened by the session token alone, which the browser got from the session's creation.
 */
export function createDropinApi(deps: ApiDeps, o: DropinApiOptions): Hono<DropinEnv> {
  const app = new Hono<DropinEnv>();
  const x: DropinCtx = {
    deps,
    limiter: new RateLimiter(deps.limits.ratePerSecond, () => deps.clock.now()),
    clientAddress: o.clientAddress,
    selfOrigins: o.selfOrigins,
  };
  app.use('*', dropinCors());
  app.use('*', gzipJson());
  app.use('/sessions', requirePublicKey(x));
  app.use('/currencies', requirePublicKey(x));
  app.use('/sessions/:token', requireCheckout(x));
  app.use('/sessions/:token/*', requireCheckout(x));

  route(app, '/sessions', { POST: createSessionHandler(deps, o.clientAddress) });
  route(app, '/currencies', { GET: listCurrenciesHandler(deps) });
  route(app, '/sessions/:token', { GET: readSessionHandler(deps) });
  route(app, '/sessions/:token/currencies', { GET: sessionCurrenciesHandler(deps) });
  route(app, '/sessions/:token/payment', { POST: chooseCurrencyHandler(deps, o.clientAddress) });
  route(app, '/sessions/:token/events', { GET: eventsHandler(deps, o.changes, o.clientAddress) });
  route(app, '/sessions/:token/simulate', { POST: simulateHandler(deps) });
  return app;
}
