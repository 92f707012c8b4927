/**
 * Public types of the drop-in checkout (docs/architecture.md drop-in contract), published as `checkout.d.ts` for bundler users.
 * Amounts are exact decimal strings: display them as they are, never through a float.
 */

/** Options of `ServiceCheckout.open` (API §4.9 plus the docs/architecture.md callbacks). */
export interface CheckoutOptions {
  /** Public drop-in key, `dk_test_...` or `dk_live_...`. Never a secret `sk_` key. */
  publicKey: string;
  /** Price in `currency`, rounded half-up by the service to that currency's minor units (JPY none, EUR 2). */
  amount: number;
  /** The price's currency, an ISO 4217 code the service prices in (EUR, GBP, JPY, ...). @default the merchant's default currency, USD unless set */
  currency?: string;
  /** Asset ticker such as `BTC` or `USDTERC20`; omitted, the customer picks one in the popup. */
  cryptoCurrency?: string;
  customer: { email: string; name?: string };
  /** The merchant's order reference (becomes the payment's `order_id`). */
  reference?: string;
  /** Base URL of the service. @default the origin the script was loaded from */
  apiBase?: string;
  /** Forces a locale (`en`, `de`, `fr`, `es`, `it`, `pt`, `nl`, `pl`, `ja`, `zh`). @default the browser's languages */
  locale?: string;
  /** Forces a colour scheme. @default 'auto' (follows prefers-color-scheme) */
  theme?: 'auto' | 'light' | 'dark';
  /** The payment finished (confirmed on chain). Fulfil only after your server saw the signed webhook. */
  onSuccess?: (payment: CheckoutPayment) => void;
  /** The popup closed (by the customer or `handle.close()`). */
  onClose?: () => void;
  /** The quote expired before anything was paid; the customer may start again (a new payment). */
  onExpired?: (payment: CheckoutPayment) => void;
  /** Anything that went wrong: invalid options, refused key or origin, network failure. */
  onError?: (error: CheckoutError) => void;
  /** Every status change of the current payment. */
  onStatus?: (payment: CheckoutPayment) => void;
}

export type CheckoutErrorCode =
  | 'invalid_options'
  | 'unauthorized'
  | 'forbidden_origin'
  | 'validation'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'network'
  | 'server';

export interface CheckoutError {
  code: CheckoutErrorCode;
  message: string;
  /** HTTP status when the service answered. */
  status?: number;
  /** Per-field messages of a 422. */
  fields?: Record<string, string[]>;
}

export type CheckoutStatus =
  | 'waiting'
  | 'confirming'
  | 'partially_paid'
  | 'finished'
  | 'expired'
  | 'failed'
  | 'refunded';

/** The payment as the drop-in sees it. */
export interface CheckoutPayment {
  payment_id: string;
  payment_status: CheckoutStatus;
  sequence: number;
  price_amount: string;
  price_currency: string;
  pay_amount: string;
  pay_currency: string;
  network: string;
  /** `pay_currency` as a wallet names it (`USDT` for `USDTERC20`): what the popup shows. */
  ticker: string;
  /** `network` as people name it (`Ethereum` for `eth`): what the popup shows. */
  network_name: string;
  pay_address: string;
  extra_id: string | null;
  actually_paid: string;
  remaining_amount: string;
  confirmations: { count: number; required: number };
  order_id: string | null;
  /** The merchant's description of the order (API `order_description`), when it has one. */
  order_description: string | null;
  expires_at: string;
  confirmed_at: string | null;
  qr: { payment_uri: string; code_url: string };
  success_url: string | null;
  cancel_url: string | null;
  /** What a browser wallet sends to pay what is due now: live EVM payments only, else null. */
  wallet: CheckoutWallet | null;
}

/**
 * A live EVM payment's transaction as the service built it from the same data as `qr.payment_uri`: the native
 * `value` to the payment address, or `transfer(address,uint256)` call data to the token contract. Quantities are
 * 0x-hex, as EIP-1193 wallets take them.
 */
export interface CheckoutWallet {
  chain_id: string;
  to: string;
  value: string;
  data: string | null;
  /** Block explorer base: a transaction is `${explorer_url}/tx/${hash}`. */
  explorer_url: string | null;
  /** EIP-3085 `wallet_addEthereumChain` parameter, for a wallet that lacks the chain; null when not offered. */
  add_chain: Record<string, unknown> | null;
}

/** How the checkout ended: `result` never rejects for a closed popup, only for errors (with a CheckoutError). */
export type CheckoutResult =
  | { status: 'finished'; payment: CheckoutPayment }
  | { status: 'closed'; payment: CheckoutPayment | null };

export interface CheckoutHandle {
  close(): void;
  result: Promise<CheckoutResult>;
}
