import type { CheckoutOptions } from './types.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const CALLBACKS = ['onSuccess', 'onClose', 'onExpired', 'onError', 'onStatus'] as const;

/**
 * Checks what a merchant passed to `open()` and returns every problem in one message, so a typo is found on
 * the first try. The service validates again; this only spares a round trip and gives clearer words.
 */
export function optionProblems(o: unknown): string[] {
  if (typeof o !== 'object' || o === null) return ['pass an options object'];
  const x = o as Record<string, unknown>;
  const out: string[] = [];
  if (typeof x.publicKey !== 'string' || x.publicKey.length === 0) out.push('publicKey is required (your dk_ key)');
  else if (x.publicKey.startsWith('sk_'))
    out.push('publicKey must be your public dk_ key: secret keys (sk_) must never reach a browser; rotate it now');
  else if (!x.publicKey.startsWith('dk_')) out.push('publicKey must start with dk_');
  if (typeof x.amount !== 'number' || !Number.isFinite(x.amount) || x.amount <= 0)
    out.push('amount must be a positive number');
  if (x.currency !== undefined && (typeof x.currency !== 'string' || !/^usd$/i.test(x.currency)))
    out.push('currency must be "USD"');
  if (
    x.cryptoCurrency !== undefined &&
    (typeof x.cryptoCurrency !== 'string' || !/^[A-Za-z0-9]{1,20}$/.test(x.cryptoCurrency))
  ) {
    out.push('cryptoCurrency must be an asset ticker such as "BTC"');
  }
  const c = x.customer as Record<string, unknown> | undefined;
  if (typeof c !== 'object' || c === null) out.push('customer.email is required');
  else {
    if (typeof c.email !== 'string' || !EMAIL.test(c.email)) out.push('customer.email must be an e-mail address');
    if (c.name !== undefined && typeof c.name !== 'string') out.push('customer.name must be a string');
  }
  if (x.reference !== undefined && typeof x.reference !== 'string') out.push('reference must be a string');
  if (x.apiBase !== undefined && (typeof x.apiBase !== 'string' || !/^https?:\/\//.test(x.apiBase)))
    out.push('apiBase must be an http(s) URL');
  if (x.locale !== undefined && typeof x.locale !== 'string') out.push('locale must be a string such as "de"');
  if (x.theme !== undefined && x.theme !== 'auto' && x.theme !== 'light' && x.theme !== 'dark')
    out.push('theme must be auto, light or dark');
  for (const k of CALLBACKS) if (x[k] !== undefined && typeof x[k] !== 'function') out.push(`${k} must be a function`);
  return out;
}

/** The session body from valid options (snake_case, as the API takes it). */
export function sessionBody(o: CheckoutOptions) {
  return {
    amount: o.amount,
    ...(o.currency ? { currency: o.currency } : {}),
    ...(o.cryptoCurrency ? { crypto_currency: o.cryptoCurrency } : {}),
    customer: { email: o.customer.email, ...(o.customer.name ? { name: o.customer.name } : {}) },
    ...(o.reference ? { reference: o.reference } : {}),
  };
}
