import { type Context, Hono } from 'hono';
import type { ApiDeps } from '../api-kit/deps.js';
import { RateLimiter } from '../api-kit/rate-limit.js';
import { answerOtherMethods, refuseUnknownRoutes } from '../api-kit/routes.js';
import { limitPerAddress, type MerchantEnv, requireSecretKey } from './auth.js';
import { registerBalances } from './routes/balances.js';
import { registerCancelRefund } from './routes/cancel-refund.js';
import { registerClaimLink } from './routes/claim-link.js';
import { registerConfirmRefundAddress } from './routes/confirm-refund-address.js';
import { registerCreateLink } from './routes/create-link.js';
import { registerCreatePayment } from './routes/create-payment.js';
import { registerCreateRefund } from './routes/create-refund.js';
import { registerEstimate } from './routes/estimate.js';
import { registerGetDelivery } from './routes/get-delivery.js';
import { registerGetLink } from './routes/get-link.js';
import { registerGetPayment } from './routes/get-payment.js';
import { registerGetRefund } from './routes/get-refund.js';
import { registerListCurrencies } from './routes/list-currencies.js';
import { registerListDeliveries } from './routes/list-deliveries.js';
import { registerListLinks } from './routes/list-links.js';
import { registerListPayments } from './routes/list-payments.js';
import { registerListRefunds } from './routes/list-refunds.js';
import { registerMinimumAmount } from './routes/minimum-amount.js';
import { registerOpenApiJson } from './routes/openapi-json.js';
import { registerPaymentExceptions } from './routes/payment-exceptions.js';
import { registerProveRefund } from './routes/prove-refund.js';
import { registerRedeliver } from './routes/redeliver.js';
import { registerSandboxBlocks } from './routes/sandbox-blocks.js';
import { registerSandboxTransfers } from './routes/sandbox-transfers.js';
import { registerSendTestEvent } from './routes/send-test-event.js';
import { registerUpdateLink } from './routes/update-link.js';
import { registerWebhookEndpoint } from './routes/webhook-endpoint.js';

/** The merchant API under /api/v1 (API §4), secret `sk_` keys only. One route per file in routes/. */
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

  registerListCurrencies(app, deps);
  registerMinimumAmount(app, deps);
  registerEstimate(app, deps);
  registerBalances(app, deps);
  registerCreatePayment(app, deps, clientAddress);
  registerListPayments(app, deps);
  registerGetPayment(app, deps);
  registerPaymentExceptions(app, deps);
  registerCreateLink(app, deps);
  registerListLinks(app, deps);
  registerGetLink(app, deps);
  registerUpdateLink(app, deps);
  registerCreateRefund(app, deps);
  registerListRefunds(app, deps);
  registerGetRefund(app, deps);
  registerCancelRefund(app, deps);
  registerProveRefund(app, deps);
  registerClaimLink(app, deps);
  registerConfirmRefundAddress(app, deps);
  registerSandboxTransfers(app, deps);
  registerSandboxBlocks(app, deps);
  registerListDeliveries(app, deps);
  // Before `/webhook-deliveries/:delivery_id`, which would otherwise take `test` for an id.
  registerSendTestEvent(app, deps);
  registerGetDelivery(app, deps);
  registerRedeliver(app, deps);
  registerWebhookEndpoint(app, deps);
  answerOtherMethods(app);
  return app;
}
