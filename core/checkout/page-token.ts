import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The capability in a hosted-page URL: HMAC-SHA256 of the payment id under the service's page secret,
 * base64url, 32 characters (192 bits). Whoever holds the URL may view that one payment; the id alone reads nothing.
 *
 * @example pageToken('pay_7k2m...', secret) // 'mZ3...'
 */
export function pageToken(paymentId: string, secret: string): string {
  return createHmac('sha256', secret).update(`pay-page:${paymentId}`).digest('base64url').slice(0, 32);
}

/** Constant-time check of a presented page token. */
export function pageTokenValid(paymentId: string, token: string, secret: string): boolean {
  const want = Buffer.from(pageToken(paymentId, secret));
  const got = Buffer.from(token);
  return want.length === got.length && timingSafeEqual(want, got);
}
