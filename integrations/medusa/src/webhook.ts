/** `@crypto-payments/medusa-payment/webhook`: the verifier alone, without loading Medusa. */
export {
  type PaymentUpdatedEvent,
  type VerifyOptions,
  verifyWebhook,
  type WebhookVerificationCode,
  WebhookVerificationError,
} from './verify.generated';
