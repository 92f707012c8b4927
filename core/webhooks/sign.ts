import { createHmac } from 'node:crypto';

/** The event kind of API §6, and the refunds' own (issue 30). */
export const EVENT_KIND = 'payment.updated';
export const REFUND_EVENT_KIND = 'refund.updated';

/** The `X-Service-Event` of a delivery, by its kind: a test event reads exactly like a payment's. */
export function eventOfKind(kind: 'payment' | 'test' | 'refund'): typeof EVENT_KIND | typeof REFUND_EVENT_KIND {
  return kind === 'refund' ? REFUND_EVENT_KIND : EVENT_KIND;
}

/**
 * `sha256=` + lower-case hex HMAC-SHA256 over `timestamp + "." + raw body` (API §6).
 * @example signature('whsec_x', 1767225600, '{"id":"..."}') // "sha256=5f1c..."
 */
export function signature(secret: string, timestampSeconds: number, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestampSeconds}.${rawBody}`).digest('hex')}`;
}

/**
 * Exactly the API's headers (docs/architecture.md, webhooks) for one attempt. The delivery id is the same on every attempt; the timestamp and
 * signature are fresh, so a captured request cannot be replayed once the receiver's tolerance has passed.
 */
export function webhookHeaders(
  secret: string,
  deliveryId: string,
  nowMs: number,
  rawBody: string,
  event: string = EVENT_KIND,
): Record<string, string> {
  const ts = Math.floor(nowMs / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'crypto-payments-service-webhooks/1',
    'x-service-event': event,
    'x-service-delivery': deliveryId,
    'x-service-timestamp': String(ts),
    'x-service-signature': signature(secret, ts, rawBody),
  };
}
