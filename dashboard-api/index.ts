import { type Context, Hono } from 'hono';
import type { ApiDeps } from '../api-kit/deps.js';
import { RateLimiter } from '../api-kit/rate-limit.js';
import { answerOtherMethods } from '../api-kit/routes.js';
import { type DashCtx, type DashEnv, guard, requireMember, requireSession } from './context.js';
import { registerExportAudit } from './routes/audit/export-audit.js';
import { registerListAudit } from './routes/audit/list-audit.js';
import { registerBalances } from './routes/balances/balances.js';
import { registerCreateKey } from './routes/keys/create-key.js';
import { registerDeactivateKey } from './routes/keys/deactivate-key.js';
import { registerLabelKey } from './routes/keys/label-key.js';
import { registerListKeys } from './routes/keys/list-keys.js';
import { registerRotateKey } from './routes/keys/rotate-key.js';
import { registerGetLink } from './routes/links/get-link.js';
import { registerListLinks } from './routes/links/list-links.js';
import { registerListAssets } from './routes/list-assets.js';
import { registerGetMail } from './routes/mail/get-mail.js';
import { registerListMails } from './routes/mail/list-mails.js';
import { registerMailSettings } from './routes/mail/mail-settings.js';
import { registerSendTestMail } from './routes/mail/send-test-mail.js';
import { registerNotificationPrefs } from './routes/notifications/notification-prefs.js';
import { registerOverview } from './routes/overview/overview.js';
import { registerPaymentEvents } from './routes/payment-events.js';
import { registerDashCancelRefund } from './routes/payments/cancel-refund.js';
import { registerDashConfirmRefundAddress } from './routes/payments/confirm-refund-address.js';
import { registerDashCreateRefund } from './routes/payments/create-refund.js';
import { registerExportPayments } from './routes/payments/export-payments.js';
import { registerGetPayment } from './routes/payments/get-payment.js';
import { registerListPayments } from './routes/payments/list-payments.js';
import { registerPaymentExceptions } from './routes/payments/payment-exceptions.js';
import { registerDashProveRefund } from './routes/payments/prove-refund.js';
import { registerDashRefundClaimLink } from './routes/payments/refund-claim-link.js';
import { registerRefundPayment } from './routes/payments/refund-payment.js';
import { registerDashRefundPsbt } from './routes/payments/refund-psbt.js';
import { registerPosCreatePayment } from './routes/pos/pos-create-payment.js';
import { registerPosSales } from './routes/pos/pos-sales.js';
import { registerCreatePaymentLink } from './routes/sell/create-payment-link.js';
import { registerReadSession } from './routes/session/read-session.js';
import { registerRequestPasswordReset } from './routes/session/request-password-reset.js';
import { registerSetPassword } from './routes/session/set-password.js';
import { registerSignIn } from './routes/session/sign-in.js';
import { registerSignInCode } from './routes/session/sign-in-code.js';
import { registerSignOut } from './routes/session/sign-out.js';
import { registerCreateMerchant } from './routes/settings/create-merchant.js';
import { registerNetworks } from './routes/settings/networks.js';
import { registerPreviewXpub } from './routes/settings/preview-xpub.js';
import { registerReadSettings } from './routes/settings/read-settings.js';
import { registerSetMoneroKeys } from './routes/settings/set-monero-keys.js';
import { registerSetPayout } from './routes/settings/set-payout.js';
import { registerSetXpub } from './routes/settings/set-xpub.js';
import { registerUnderpaidTolerance } from './routes/settings/underpaid-tolerance.js';
import { registerUpdateSettings } from './routes/settings/update-settings.js';
import { registerListForwarders } from './routes/sweeps/list-forwarders.js';
import { registerSweepTransaction } from './routes/sweeps/sweep-transaction.js';
import { registerTryCheckout } from './routes/try/try-checkout.js';
import { registerChangePassword } from './routes/users/change-password.js';
import { registerChangeRole } from './routes/users/change-role.js';
import { registerInviteUser } from './routes/users/invite-user.js';
import { registerListUsers } from './routes/users/list-users.js';
import { registerRemoveUser } from './routes/users/remove-user.js';
import { registerRequireTwoFactor } from './routes/users/require-two-factor.js';
import { registerTwoFactor } from './routes/users/two-factor.js';
import { registerTwoFactorDisable } from './routes/users/two-factor-disable.js';
import { registerTwoFactorEnable } from './routes/users/two-factor-enable.js';
import { registerTwoFactorSetup } from './routes/users/two-factor-setup.js';
import { registerEnableWebhookEndpoint } from './routes/webhooks/enable-webhook-endpoint.js';
import { registerGetDelivery } from './routes/webhooks/get-delivery.js';
import { registerListDeliveries } from './routes/webhooks/list-deliveries.js';
import { registerRedeliver } from './routes/webhooks/redeliver.js';
import { registerRedeliverFailed } from './routes/webhooks/redeliver-failed.js';
import { registerRotateWebhookSecret } from './routes/webhooks/rotate-webhook-secret.js';
import { registerSendTestEvent } from './routes/webhooks/send-test-event.js';
import { registerUpdateWebhookUrl } from './routes/webhooks/update-webhook-url.js';
import { registerWebhookEndpoint } from './routes/webhooks/webhook-endpoint.js';

/**
 * The merchant dashboard's API under /dashboard/api (docs/architecture.md dashboard contract): cookie sessions with a CSRF
 * token on every change, never API keys; one merchant's routes under /merchants/{merchant_id}/, open to its
 * members (owners change, viewers read). One route per file in routes/, in a folder named after the dashboard page
 * that calls it (dashboard/pages/; the account's two-factor routes sit with users, the page that shows them);
 * routes/list-assets.ts and routes/payment-events.ts serve every page.
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
