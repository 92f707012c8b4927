/**
 * The package entry Medusa loads (`resolve` in medusa-config): the payment module provider, plus the service's own
 * webhook verifier for code that receives its webhooks elsewhere in the shop.
 */
import { ModuleProvider, Modules } from '@medusajs/framework/utils';
import { CryptoPaymentProviderService } from './service';

export { type CryptoPaymentOptions, resolveOptions } from './options';
export { CryptoPaymentProviderService } from './service';
export {
  type PaymentUpdatedEvent,
  type VerifyOptions,
  verifyWebhook,
  type WebhookVerificationCode,
  WebhookVerificationError,
} from './verify.generated';

export default ModuleProvider(Modules.PAYMENT, { services: [CryptoPaymentProviderService] });
