/** Shapes of the dashboard API's answers (dashboard-api/views.ts). Amounts are exact decimal strings. */
export interface PaymentRow {
  payment_id: string;
  kind: string;
  mode: string;
  payment_status: string;
  status_detail: string;
  sequence: number;
  price_amount: string;
  price_currency: string;
  pay_amount: string;
  pay_currency: string;
  actually_paid: string;
  network: string;
  pay_address: string;
  extra_id: string | null;
  order_id: string | null;
  customer_email: string;
  created_at: string;
  updated_at: string;
  confirmed_at: string | null;
}

export interface Attempt {
  attempt: number;
  url: string;
  started_at: string;
  duration_ms: number;
  response_code: number | null;
  error: string | null;
  response_excerpt: string | null;
}

export interface Delivery {
  delivery_id: string;
  test: boolean;
  payment_id: string | null;
  sequence: number | null;
  /** The payment status the event carries. */
  payment_status: string | null;
  /** The JSON body as signed and sent. */
  payload: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempt_count: number;
  next_attempt_at: string | null;
  last_response_code: number | null;
  created_at: string;
  attempts: Attempt[];
}

/** An asset a merchant can be offered in its mode (GET /merchants/{id}/assets). */
export interface AssetOption {
  code: string;
  name: string;
  network: string;
  /** Sandbox only: no live set-up can take it (TRX, USDTTRC20, SOL, XRP). */
  test_only: boolean;
}
