/** docs/architecture.md "Payment lifecycle": the closed set of statuses and details. */
export const paymentStatuses = [
  'waiting',
  'confirming',
  'partially_paid',
  'finished',
  'expired',
  'failed',
  'refunded',
] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

export const statusDetails = ['none', 'underpaid', 'overpaid', 'paid_late'] as const;
export type StatusDetail = (typeof statusDetails)[number];

/** Statuses a chain observation can no longer move (late deposits only change the detail). */
export const settledStatuses: ReadonlySet<string> = new Set(['finished', 'expired', 'failed', 'refunded']);
