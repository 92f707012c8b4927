import { sessionBody } from './options.js';
import type { CheckoutError, CheckoutErrorCode, CheckoutOptions, CheckoutPayment } from './types.js';

/** The checkout as the service describes it (GET /sessions/{token}). Amounts are exact decimal strings. */
export interface SessionView {
  test_mode: boolean;
  merchant_name: string;
  amount: string;
  currency: string;
  /** Hosted page only: the merchant left the asset to the customer, so the page offers the picker. */
  customer_chooses_currency?: true;
}

/** An asset in the picker (the session's list carries only what the picker shows). */
export interface PickerCurrency {
  code: string;
  name: string;
  network: string;
  /** The ticker and network as people name them (`USDT`, `Ethereum`): what the picker shows; the code is the id. */
  ticker: string;
  network_name: string;
  /** The icon inline (data URL), so the picker needs no extra requests; absent when the service has none. */
  icon?: string;
  /** The icon's address, when it is not inline. */
  icon_url?: string;
  /** Only when not payable: the minimum the price does not reach, in USD and in the price's currency. */
  min_usd?: string;
  min_price?: string;
  payable: boolean;
}

export interface CreatedSession {
  session_token: string;
  session: SessionView;
  /** With the asset preset: the payment; else the picker's list. */
  payment?: CheckoutPayment;
  currencies?: PickerCurrency[];
}

const CODES: Record<number, CheckoutErrorCode> = {
  401: 'unauthorized',
  403: 'forbidden_origin',
  404: 'not_found',
  409: 'conflict',
  422: 'validation',
  429: 'rate_limited',
};

/**
 * A request to the drop-in API: GET, or POST of a JSON body sent as text/plain. Neither carries a header of ours, so
 * from a shop's page both are CORS-simple requests: no preflight, one round trip (the service takes text/plain;
 * the key of POST /sessions is in its body).
 */
export function send(base: string, path: string, body?: unknown): Promise<Response> {
  // Bodies are objects, so a body is a POST.
  return fetch(`${base}/api/dropin/v1${path}`, body ? { method: 'POST', body: JSON.stringify(body) } : undefined);
}

/** POST /sessions for valid options (the module's open(), and checkout.js for a tap before the module is in). */
export function sendSession(base: string, o: CheckoutOptions): Promise<Response> {
  return fetch(`${base}/api/dropin/v1/sessions`, { method: 'POST', body: JSON.stringify(sessionBody(o)) });
}

/** The drop-in API client: every call goes to `{base}/api/dropin/v1`, never to the merchant API. */
export class DropinApi {
  constructor(readonly base: string) {}

  /** `send`, then `read`. */
  call<T>(path: string, body?: unknown): Promise<T> {
    return this.read(send(this.base, path, body));
  }

  /**
   * The answer's data. A failure is thrown as the `CheckoutError` that `onError` gets (a plain object, never an
   * `Error`): the service's own message is kept, as it says what to fix.
   */
  async read<T>(sent: Promise<Response>): Promise<T> {
    let res: Response;
    try {
      res = await sent;
    } catch {
      const e: CheckoutError = { code: 'network', message: `Cannot reach the payment service at ${this.base}` };
      throw e;
    }
    // Not JSON: the status decides below.
    const json: { success?: boolean; message?: string; data?: unknown; errors?: Record<string, string[]> } = await res
      .json()
      .catch(() => ({}));
    if (!res.ok || json.success !== true) {
      const fields = json.errors;
      const e: CheckoutError = {
        code: CODES[res.status] ?? 'server',
        message:
          (json.message ?? `HTTP ${res.status}`) +
          (fields
            ? `: ${Object.entries(fields)
                .map(([k, v]) => `${k} ${v.join(', ')}`)
                .join('; ')}`
            : ''),
        status: res.status,
        ...(fields && { fields }),
      };
      throw e;
    }
    return json.data as T;
  }
}
