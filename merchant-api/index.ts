import { type Context, Hono } from 'hono';
import type { ApiDeps } from '../api-kit/deps.js';
import { RateLimiter } from '../api-kit/rate-limit.js';
import { route } from '../api-kit/routes.js';
import { type MerchantEnv, requireSecretKey } from './auth.js';
import { balancesHandler } from './routes/balances.js';
import { estimateHandler, listCurrenciesHandler, minimumAmountHandler } from './routes/catalog.js';
import { creationHandler } from './routes/create-payment.js';
import { getPaymentHandler, listPaymentsHandler } from './routes/read-payments.js';
import { sandboxBlocksHandler, sandboxTransferHandler } from './routes/sandbox.js';

/** Extra routes other parts of the service mount on /api/v1 (webhook deliveries, ...), behind the same auth. */
export type MerchantRoutes = (app: Hono<MerchantEnv>) => void;

/** The merchant API under /api/v1 (spec section 4), secret `sk_` keys only. */
export function createMerchantApi(
  deps: ApiDeps,
  clientAddress: (c: Context) => string,
  extra: MerchantRoutes[] = [],
): Hono<MerchantEnv> {
  const app = new Hono<MerchantEnv>();
  const limiter = new RateLimiter(deps.limits.ratePerSecond, () => deps.clock.now());
  app.use('*', requireSecretKey(deps, limiter, clientAddress));

  route(app, '/balances', { GET: balancesHandler(deps) });
  route(app, '/currencies', { GET: listCurrenciesHandler(deps) });
  route(app, '/minimum-amount', { GET: minimumAmountHandler(deps) });
  route(app, '/estimate', { GET: estimateHandler(deps) });
  route(app, '/payments', { GET: listPaymentsHandler(deps), POST: creationHandler(deps, 'direct', clientAddress) });
  route(app, '/payment-links', { POST: creationHandler(deps, 'link', clientAddress) });
  route(app, '/payments/:payment_id', { GET: getPaymentHandler(deps) });
  route(app, '/sandbox/transfers', { POST: sandboxTransferHandler(deps) });
  route(app, '/sandbox/blocks', { POST: sandboxBlocksHandler(deps) });
  for (const register of extra) register(app);
  return app;
}
