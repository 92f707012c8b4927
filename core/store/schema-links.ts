/** Tables of reusable payment links and the point of sale (migration 0020-reusable-links). */

/** A reusable payment link. Amounts are exact decimal text in `price_currency`; JSON arrays are text. */
export interface PaymentLinkTable {
  id: string;
  merchant_id: string;
  /** The unguessable part of the public URL `/l/{token}`. */
  token: string;
  name: string;
  /** The fixed price; null when the customer enters the amount. */
  price_amount: string | null;
  /** Bounds of a customer-entered amount (null: no bound beyond the asset's minimum and the price maximum). */
  min_amount: string | null;
  max_amount: string | null;
  price_currency: string;
  /** JSON array of asset codes offered; null offers every asset the merchant can take. */
  currencies: string | null;
  max_payments: number | null;
  ends_at: number | null;
  active: number;
  created_at: number;
  updated_at: number;
}

export interface PaymentLinkPaymentTable {
  payment_id: string;
  link_id: string;
  created_at: number;
}

/** A payment taken at the point of sale; `tip_amount` is part of the payment's price, kept apart for the day's list. */
export interface PosSaleTable {
  payment_id: string;
  merchant_id: string;
  user_id: string;
  tip_amount: string;
  created_at: number;
}
