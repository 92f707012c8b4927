/** Migration 0024: a payment's USD quote and the merchant's resolutions of it (accepted, rest asked until). */
export interface PaymentExceptionTable {
  payment_id: string;
  usd_rate: string | null;
  accepted_at: number | null;
  rest_until: number | null;
}
