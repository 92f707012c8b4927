import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The receiver helper merchants import from this package: verifies a `payment.updated` webhook and returns the
 * typed event. Depends on node:crypto only, so it can be copied into any Node receiver as is.
 */

/** `payment.updated` as sent (API §6 plus `sequence`, `status_detail`, `updated_at`). */
export interface PaymentUpdatedEvent {
  id: string;
  event: 'payment.updated';
  created_at: string;
  source: string;
  /** True only on events sent by "send test event"; never fulfil on them. */
  test?: boolean;
  merchant: { user_id: string | null };
  payment: {
    payment_id: string;
    invoice_id: string;
    purchase_id: string;
    payment_status: 'waiting' | 'confirming' | 'partially_paid' | 'finished' | 'expired' | 'failed' | 'refunded';
    status_detail: 'none' | 'underpaid' | 'overpaid' | 'paid_late';
    /** Grows with every change of the payment: drop an event whose sequence is not above the last one you applied. */
    sequence: number;
    price_amount: number;
    price_currency: string;
    pay_amount: number;
    pay_currency: string;
    actually_paid: number;
    pay_address: string;
    extra_id: string | null;
    network: string;
    order_id: string | null;
    confirmed_at: string | null;
    updated_at: string;
    customer: { name: string; email: string };
  };
}

export type WebhookVerificationCode = 'missing_header' | 'bad_signature' | 'stale_timestamp' | 'bad_payload';

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
  constructor(
    readonly code: WebhookVerificationCode,
    message: string,
  ) {
    super(message);
  }
}

export interface VerifyOptions {
  /** Largest accepted distance between `X-Service-Timestamp` and now, in seconds. @default 300 */
  toleranceSeconds?: number;
  /** The current time in epoch milliseconds (tests and replays). @default Date.now() */
  now?: number;
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name);
  const v = key === undefined ? undefined : bag[key];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Verifies a webhook from the exact bytes received and returns the event; throws `WebhookVerificationError`
 * otherwise. The comparison is constant-time; a timestamp outside the tolerance is refused even when signed.
 * @example
 * const event = verifyWebhook(rawBody, req.headers, process.env.WEBHOOK_SECRET!);
 * if (event.payment.payment_status === 'finished') fulfil(event.payment.order_id);
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: HeaderBag,
  secret: string,
  options: VerifyOptions = {},
): PaymentUpdatedEvent {
  const { toleranceSeconds = 300, now = Date.now() } = options;
  const ts = header(headers, 'x-service-timestamp');
  const sig = header(headers, 'x-service-signature');
  if (!ts || !sig)
    throw new WebhookVerificationError('missing_header', 'X-Service-Timestamp and X-Service-Signature are required');
  if (!/^\d{1,12}$/.test(ts))
    throw new WebhookVerificationError('bad_signature', 'X-Service-Timestamp is not a Unix timestamp');
  const body =
    typeof rawBody === 'string'
      ? Buffer.from(rawBody, 'utf8')
      : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  const expected = Buffer.from(
    `sha256=${createHmac('sha256', secret).update(`${ts}.`).update(body).digest('hex')}`,
    'utf8',
  );
  const given = Buffer.from(sig.trim(), 'utf8');
  // Lengths are public (always 71 bytes when well formed); the bytes are compared in constant time.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new WebhookVerificationError('bad_signature', 'Signature does not match');
  }
  if (Math.abs(now / 1000 - Number(ts)) > toleranceSeconds) {
    throw new WebhookVerificationError('stale_timestamp', `Timestamp is more than ${toleranceSeconds} s away from now`);
  }
  let event: unknown;
  try {
    event = JSON.parse(body.toString('utf8'));
  } catch {
    throw new WebhookVerificationError('bad_payload', 'Body is not JSON');
  }
  const e = event as Partial<PaymentUpdatedEvent> | null;
  if (
    !e ||
    typeof e !== 'object' ||
    e.event !== 'payment.updated' ||
    typeof e.id !== 'string' ||
    typeof e.payment !== 'object' ||
    e.payment === null
  ) {
    throw new WebhookVerificationError('bad_payload', 'Body is not a payment.updated event');
  }
  return e as PaymentUpdatedEvent;
}
