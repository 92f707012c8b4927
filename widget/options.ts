import type { CheckoutOptions } from './types.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const CALLBACKS = ['onSuccess', 'onClose', 'onExpired', 'onError', 'onStatus'] as const;

/** One code per broken rule; option-messages.ts words them (a chunk: a working integration never loads it). */
export type OptionProblem =
  | 'object'
  | 'key'
  | 'secret'
  | 'prefix'
  | 'amount'
  | 'currency'
  | 'crypto'
  | 'customer'
  | 'email'
  | 'name'
  | 'reference'
  | 'apiBase'
  | 'locale'
  | 'theme'
  | (typeof CALLBACKS)[number];

/**
 * Checks what a merchant passed to `open()` and returns every problem at once, so a typo is found on the first
 * try. The service validates again; this only spares a round trip and gives clearer words.
 */
export function optionProblemCodes(o: unknown): OptionProblem[] {
  if (typeof o !== 'object' || o === null) return ['object'];
  const x = o as Record<string, unknown>;
  const out: OptionProblem[] = [];
  const key = x.publicKey;
  if (typeof key !== 'string' || key.length === 0) out.push('key');
  else if (key.startsWith('sk_')) out.push('secret');
  else if (!key.startsWith('dk_')) out.push('prefix');
  if (typeof x.amount !== 'number' || !Number.isFinite(x.amount) || x.amount <= 0) out.push('amount');
  if (x.currency !== undefined && (typeof x.currency !== 'string' || !/^usd$/i.test(x.currency))) out.push('currency');
  if (
    x.cryptoCurrency !== undefined &&
    (typeof x.cryptoCurrency !== 'string' || !/^[A-Za-z0-9]{1,20}$/.test(x.cryptoCurrency))
  ) {
    out.push('crypto');
  }
  const c = x.customer as Record<string, unknown> | undefined;
  if (typeof c !== 'object' || c === null) out.push('customer');
  else {
    if (typeof c.email !== 'string' || !EMAIL.test(c.email)) out.push('email');
    if (c.name !== undefined && typeof c.name !== 'string') out.push('name');
  }
  if (x.reference !== undefined && typeof x.reference !== 'string') out.push('reference');
  if (x.apiBase !== undefined && (typeof x.apiBase !== 'string' || !/^https?:\/\//.test(x.apiBase)))
    out.push('apiBase');
  if (x.locale !== undefined && typeof x.locale !== 'string') out.push('locale');
  if (x.theme !== undefined && x.theme !== 'auto' && x.theme !== 'light' && x.theme !== 'dark') out.push('theme');
  for (const k of CALLBACKS) if (x[k] !== undefined && typeof x[k] !== 'function') out.push(k);
  return out;
}

/** The session body from valid options (snake_case, as the API takes it; JSON leaves out what is undefined). */
export function sessionBody(o: CheckoutOptions) {
  return {
    amount: o.amount,
    currency: o.currency || undefined,
    crypto_currency: o.cryptoCurrency || undefined,
    customer: { email: o.customer.email, name: o.customer.name || undefined },
    reference: o.reference || undefined,
  };
}
