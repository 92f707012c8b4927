import { type Context, Hono } from 'hono';
import type { ApiDeps } from '../api-kit/deps.js';
import { RateLimiter } from '../api-kit/rate-limit.js';
import { answerOtherMethods } from '../api-kit/routes.js';
import { type DashCtx, type DashEnv, guard, requireMember, requireSession } from './context.js';
import { registerBalances } from './routes/balances.js';
import { registerDashCancelRefund } from './routes/cancel-refund.js';
import { registerChangePassword } from './routes/change-password.js';
import { registerChangeRole } from './routes/change-role.js';
import { registerDashConfirmRefundAddress } from './routes/confirm-refund-address.js';
import { registerCreateKey } from './routes/create-key.js';
import { registerCreateMerchant } from './routes/create-merchant.js';
import { registerCreatePaymentLink } from './routes/create-payment-link.js';
import { registerDashCreateRefund } from './routes/create-refund.js';
import { registerDeactivateKey } from './routes/deactivate-key.js';
import { registerEnableWebhookEndpoint } from './routes/enable-webhook-endpoint.js';
import { registerExportAudit } from './routes/export-audit.js';
import { registerExportPayments } from './routes/export-payments.js';
import { registerGetDelivery } from './routes/get-delivery.js';
import { registerGetLink } from './routes/get-link.js';
import { registerGetMail } from './routes/get-mail.js';
import { registerGetPayment } from './routes/get-payment.js';
import { registerInviteUser } from './routes/invite-user.js';
import { registerLabelKey } from './routes/label-key.js';
import { registerListAssets } from './routes/list-assets.js';
import { registerListAudit } from './routes/list-audit.js';
import { registerListDeliveries } from './routes/list-deliveries.js';
import { registerListForwarders } from './routes/list-forwarders.js';
import { registerListKeys } from './routes/list-keys.js';
import { registerListLinks } from './routes/list-links.js';
import { registerListMails } from './routes/list-mails.js';
import { registerListPayments } from './routes/list-payments.js';
import { registerListUsers } from './routes/list-users.js';
import { registerMailSettings } from './routes/mail-settings.js';
import { registerNetworks } from './routes/networks.js';
import { registerNotificationPrefs } from './routes/notification-prefs.js';
import { registerOverview } from './routes/overview.js';
import { registerPaymentEvents } from './routes/payment-events.js';
import { registerPaymentExceptions } from './routes/payment-exceptions.js';
import { registerPosCreatePayment } from './routes/pos-create-payment.js';
import { registerPosSales } from './routes/pos-sales.js';
import { registerPreviewXpub } from './routes/preview-xpub.js';
import { registerDashProveRefund } from './routes/prove-refund.js';
import { registerReadSession } from './routes/read-session.js';
import { registerReadSettings } from './routes/read-settings.js';
import { registerRedeliver } from './routes/redeliver.js';
import { registerRedeliverFailed } from './routes/redeliver-failed.js';
import { registerDashRefundClaimLink } from './routes/refund-claim-link.js';
import { registerRefundPayment } from './routes/refund-payment.js';
import { registerDashRefundPsbt } from './routes/refund-psbt.js';
import { registerRemoveUser } from './routes/remove-user.js';
import { registerRequestPasswordReset } from './routes/request-password-reset.js';
import { registerRequireTwoFactor } from './routes/require-two-factor.js';
import { registerRotateKey } from './routes/rotate-key.js';
import { registerRotateWebhookSecret } from './routes/rotate-webhook-secret.js';
import { registerSendTestEvent } from './routes/send-test-event.js';
import { registerSendTestMail } from './routes/send-test-mail.js';
import { registerSetMoneroKeys } from './routes/set-monero-keys.js';
import { registerSetPassword } from './routes/set-password.js';
import { registerSetPayout } from './routes/set-payout.js';
import { registerSetXpub } from './routes/set-xpub.js';
import { registerSignIn } from './routes/sign-in.js';
import { registerSignInCode } from './routes/sign-in-code.js';
import { registerSignOut } from './routes/sign-out.js';
import { registerSweepTransaction } from './routes/sweep-transaction.js';
import { registerTryCheckout } from './routes/try-checkout.js';
import { registerTwoFactor } from './routes/two-factor.js';
import { registerTwoFactorDisable } from './routes/two-factor-disable.js';
import { registerTwoFactorEnable } from './routes/two-factor-enable.js';
import { registerTwoFactorSetup } from './routes/two-factor-setup.js';
import { registerUnderpaidTolerance } from './routes/underpaid-tolerance.js';
import { registerUpdateSettings } from './routes/update-settings.js';
import { registerUpdateWebhookUrl } from './routes/update-webhook-url.js';
import { registerWebhookEndpoint } from './routes/webhook-endpoint.js';

/**
 * The merchant dashboard's API under /dashboard/api (docs/architecture.md dashboard contract): cookie sessions with a CSRF
 * token on every change, never API keys; one merchant's routes under /merchants/{merchant_id}/, open to its
 * members (owners change, viewers read). One route per file in routes/.
 */
export function createDashboardApi(deps: ApiDeps, clientAddress: (c: Context) => string): Hono<DashEnv> {
  const app = new Hono<DashEnv>();
  const x: DashCtx = {
    deps,
    limiter: new RateLimiter(deps.limits.ratePerSecond, () => deps.clock.now()),
    clientAddress,
  };
  const session = requireSession(x);
  app.use('*', guard(x));
  // Signing out needs the session; signing in, reading who is signed in (maybe nobody) and setting a password
  // through a link do not.
  app.use('/session', (c, next) => (c.req.method === 'DELETE' ? session(c, next) : next()));
  app.use('/merchants/:merchant_id/*', session, requireMember(x));
  app.use('/account/*', session);
  app.use('/merchants', session);

  registerSignIn(app, x);
  registerSignInCode(app, x);
  registerReadSession(app, x);
  registerSignOut(app, x);
  registerSetPassword(app, x);
  registerCreateMerchant(app, x);
  registerRequestPasswordReset(app, x);
  registerOverview(app, x);
  registerListPayments(app, x);
  registerCreatePaymentLink(app, x);
  registerListLinks(app, x);
  registerGetLink(app, x);
  registerPosCreatePayment(app, x);
  registerPosSales(app, x);
  registerGetPayment(app, x);
  registerRefundPayment(app, x);
  registerDashCreateRefund(app, x);
  registerPaymentExceptions(app, x);
  registerDashCancelRefund(app, x);
  registerDashProveRefund(app, x);
  registerDashRefundPsbt(app, x);
  registerDashRefundClaimLink(app, x);
  registerDashConfirmRefundAddress(app, x);
  registerPaymentEvents(app, x);
  registerBalances(app, x);
  registerExportPayments(app, x);
  registerWebhookEndpoint(app, x);
  registerUpdateWebhookUrl(app, x);
  registerEnableWebhookEndpoint(app, x);
  registerRotateWebhookSecret(app, x);
  registerListDeliveries(app, x);
  // Before `/webhook-deliveries/:delivery_id`, which would otherwise take `test` for an id.
  registerSendTestEvent(app, x);
  registerGetDelivery(app, x);
  registerRedeliver(app, x);
  registerRedeliverFailed(app, x);
  registerListKeys(app, x);
  registerCreateKey(app, x);
  registerRotateKey(app, x);
  registerDeactivateKey(app, x);
  registerLabelKey(app, x);
  registerReadSettings(app, x);
  registerMailSettings(app, x);
  registerSendTestMail(app, x);
  registerListMails(app, x);
  registerGetMail(app, x);
  registerUpdateSettings(app, x);
  registerUnderpaidTolerance(app, x);
  registerPreviewXpub(app, x);
  registerSetXpub(app, x);
  registerSetMoneroKeys(app, x);
  registerSetPayout(app, x);
  registerListForwarders(app, x);
  registerSweepTransaction(app, x);
  registerNetworks(app, x);
  registerListAssets(app, x);
  registerTryCheckout(app, x);
  registerListAudit(app, x);
  registerExportAudit(app, x);
  registerListUsers(app, x);
  registerInviteUser(app, x);
  registerChangeRole(app, x);
  registerRemoveUser(app, x);
  registerChangePassword(app, x);
  registerNotificationPrefs(app, x);
  registerTwoFactor(app, x);
  registerTwoFactorSetup(app, x);
  registerTwoFactorEnable(app, x);
  registerTwoFactorDisable(app, x);
  registerRequireTwoFactor(app, x);
  answerOtherMethods(app);
  return app;
}
