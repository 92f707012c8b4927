/**
 * One table from the service's `payment_status` to Medusa's words. Only `finished` is money received in full and
 * confirmed; `partially_paid` (underpaid) and `expired` are never reported as paid, whatever else they carry.
 */
export type ServiceStatus =
  | 'waiting'
  | 'confirming'
  | 'partially_paid'
  | 'finished'
  | 'expired'
  | 'failed'
  | 'refunded';

/** Medusa's PaymentSessionStatus values (kept as strings so this file needs no Medusa import). */
export type SessionStatus = 'pending' | 'requires_more' | 'authorized' | 'captured' | 'error' | 'canceled';

/** Medusa's PaymentActions values a webhook can map to. */
export type WebhookAction = 'captured' | 'pending' | 'requires_more' | 'failed' | 'not_supported';

export function sessionStatusOf(status: string): SessionStatus {
  switch (status) {
    case 'finished':
      // Confirmed on chain and nothing to capture later: Medusa authorizes, then records the capture.
      return 'authorized';
    case 'partially_paid':
      return 'requires_more';
    case 'expired':
    case 'failed':
      return 'error';
    case 'refunded':
      return 'canceled';
    default:
      return 'pending';
  }
}

export function webhookActionOf(status: string): WebhookAction {
  switch (status) {
    case 'finished':
      return 'captured';
    case 'partially_paid':
      return 'requires_more';
    case 'expired':
    case 'failed':
      return 'failed';
    case 'waiting':
    case 'confirming':
      return 'pending';
    default:
      return 'not_supported';
  }
}
