import { type Context, Hono } from 'hono';
import type { ApiDeps } from '../api-kit/deps.js';
import { RateLimiter } from '../api-kit/rate-limit.js';
import { answerOtherMethods } from '../api-kit/routes.js';
import { type DropinCtx, type DropinEnv, requireCheckout, requirePublicKey, requireSessionKey } from './context.js';
import { dropinCors } from './cors.js';
import { gzipJson } from './gzip-json.js';
import { registerChooseCurrency } from './routes/choose-currency.js';
import { registerCreateSession } from './routes/create-session.js';
import { registerCurrencies } from './routes/currencies.js';
import { registerEvents } from './routes/events.js';
import { registerPayLink } from './routes/pay-link.js';
import { registerReadSession } from './routes/read-session.js';
import { registerSimulate } from './routes/simulate.js';

export interface DropinApiOptions {
  clientAddress: (c: Context) => string;
  /** Origins of the service's own pages (hosted page, demo): PUBLIC_URL's. */
  selfOrigins: () => string[];
}

/**
 * The drop-in API under /api/dropin/v1 (docs/architecture.md drop-in contract): `dk_` keys create sessions; everything
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
  app.post('/sessions', requireSessionKey(x));
  app.use('/currencies', requirePublicKey(x));
  app.use('/sessions/:token', requireCheckout(x));
  app.use('/sessions/:token/*', requireCheckout(x));

  registerCreateSession(app, deps, o.clientAddress);
  registerCurrencies(app, deps);
  registerReadSession(app, deps);
  registerChooseCurrency(app, deps, o.clientAddress);
  registerEvents(app, deps, o.clientAddress);
  registerSimulate(app, deps);
  registerPayLink(app, x);
  answerOtherMethods(app);
  return app;
}
