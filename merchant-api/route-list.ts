import type { MerchantRoute } from './route.js';
import { balancesRoute } from './routes/balances.js';
import { cancelRefundRoute } from './routes/cancel-refund.js';
import { claimLinkRoute } from './routes/claim-link.js';
import { confirmRefundAddressRoute } from './routes/confirm-refund-address.js';
import { createLinkRoute } from './routes/create-link.js';
import { createPaymentLinkRoute, createPaymentRoute } from './routes/create-payment.js';
import { createRefundRoute } from './routes/create-refund.js';
import { estimateRoute } from './routes/estimate.js';
import { getDeliveryRoute } from './routes/get-delivery.js';
import { getLinkRoute } from './routes/get-link.js';
import { getPaymentRoute } from './routes/get-payment.js';
import { getRefundRoute } from './routes/get-refund.js';
import { listCurrenciesRoute } from './routes/list-currencies.js';
import { listDeliveriesRoute } from './routes/list-deliveries.js';
import { listLinksRoute } from './routes/list-links.js';
import { listPaymentsRoute } from './routes/list-payments.js';
import { listRefundsRoute } from './routes/list-refunds.js';
import { minimumAmountRoute } from './routes/minimum-amount.js';
import { acceptPaymentRoute, askRestRoute } from './routes/payment-exceptions.js';
import { proveRefundRoute } from './routes/prove-refund.js';
import { redeliverRoute } from './routes/redeliver.js';
import { refundPsbtRoute } from './routes/refund-psbt.js';
import { sandboxBlocksRoute } from './routes/sandbox-blocks.js';
import { sandboxTransfersRoute } from './routes/sandbox-transfers.js';
import { sendTestEventRoute } from './routes/send-test-event.js';
import { updateLinkRoute } from './routes/update-link.js';
import { enableWebhookEndpointRoute, getWebhookEndpointRoute } from './routes/webhook-endpoint.js';

/**
 * Every keyed /api/v1 route, in the order the reference reads best: the app serves this list (merchant-api/index.ts)
 * and the OpenAPI document describes it (openapi/document.ts). A route file that is not listed here is neither.
 */
export const merchantRoutes: MerchantRoute[] = [
  createPaymentRoute,
  createPaymentLinkRoute,
  getPaymentRoute,
  acceptPaymentRoute,
  askRestRoute,
  listPaymentsRoute,
  createLinkRoute,
  listLinksRoute,
  getLinkRoute,
  updateLinkRoute,
  createRefundRoute,
  listRefundsRoute,
  getRefundRoute,
  cancelRefundRoute,
  proveRefundRoute,
  refundPsbtRoute,
  claimLinkRoute,
  confirmRefundAddressRoute,
  listCurrenciesRoute,
  minimumAmountRoute,
  estimateRoute,
  balancesRoute,
  listDeliveriesRoute,
  getDeliveryRoute,
  redeliverRoute,
  sendTestEventRoute,
  getWebhookEndpointRoute,
  enableWebhookEndpointRoute,
  sandboxTransfersRoute,
  sandboxBlocksRoute,
];
