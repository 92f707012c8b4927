/**
 * The package entry merchants import: the webhook receiver helper and its types.
 * @example
 * import { verifyWebhook } from 'crypto-payments-service';
 * const event = verifyWebhook(rawBody, req.headers, process.env.WEBHOOK_SECRET!);
 */
export {
  type PaymentUpdatedEvent,
  type VerifyOptions,
  verifyWebhook,
  type WebhookVerificationCode,
  WebhookVerificationError,
} from './core/webhooks/verify.js';
