import type { CheckoutError, CheckoutErrorCode, CheckoutPayment } from './types.js';

/** The checkout as the service describes it (GET /sessions/{token}). Amounts are exact decimal strings. */
export interface SessionView {
  test_mode: boolean;
  merchant_name: string;
  amount: string;
  currency: string;
}

/** An asset in the picker (the session's list carries only what the picker shows). */
export interface PickerCurrency {
  code: string;
  name: string;
  network: string;
  /** The icon inline (data URL), so the picker needs no extra requests; absent when the service has none. */
  icon?: string;
  /** The icon's address, when it is not inline. */
  icon_url?: string;
  min_usd: string;
  payable: boolean;
}

export interface CreatedSession {
  session_token: string;
  session: SessionView;
  payment: CheckoutPayment | null;
  currencies: PickerCurrency[] | null;
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
 * A failure of the API, thrown as the `CheckoutError` that `onError` gets (a plain object, never an `Error`): the
 * service's own message is kept, as it says what to fix.
 */
function failure(
  code: CheckoutErrorCode,
  message: string,
  status?: number,
  fields?: Record<string, string[]>,
): CheckoutError {
  return { code, message, ...(status ? { status } : {}), ...(fields ? { fields } : {}) };
}

/** The drop-in API client: every call goes to `{base}/api/dropin/v1`, never to the merchant API. */
export class DropinApi {
  constructor(readonly base: string) {}

  async call<T>(path: string, init: { body?: unknown; key?: string } = {}): Promise<T> {
    const headers: Record<string, string> = {};
    if (init.key) headers.authorization = `Bearer ${init.key}`;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`${this.base}/api/dropin/v1${path}`, {
        method: init.body === undefined ? 'GET' : 'POST',
        headers,
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
    } catch {
      throw failure('network', `Cannot reach the payment service at ${this.base}`);
    }
    let json: { success?: boolean; message?: string; data?: unknown; errors?: Record<string, string[]> } = {};
    try {
      json = await res.json();
    } catch {
      // not JSON: the status decides below
    }
    if (!res.ok || json.success !== true) {
      const fields = json.errors;
      const detail = fields
        ? `: ${Object.entries(fields)
            .map(([k, v]) => `${k} ${v.join(', ')}`)
            .join('; ')}`
        : '';
      throw failure(
        CODES[res.status] ?? 'server',
        `${json.message ?? `HTTP ${res.status}`}${detail}`,
        res.status,
        fields,
      );
    }
    return json.data as T;
  }
}
