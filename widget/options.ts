import type { CheckoutOptions } from './types.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const CALLBACKS = ['onSuccess', 'onClose', 'onExpired', 'onError', 'onStatus'] as const;

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

/** An optional string option that is present and not a string matching `re`. */
function badString(v: unknown, re: RegExp = /^/): boolean {
  return v !== undefined && !(typeof v === 'string' && re.test(v));
}

/**
 * Checks what a merchant passed to `open()` and returns every problem at once, so a typo is found on the first try.
 * The service validates again; this spares a round trip and gives clearer words.
 *
 * @example optionProblemCodes({ publicKey: 'sk_live_x', amount: 5, customer: { email: 'a@b.co' } }) // ['secret']
 */
export function optionProblemCodes(o: unknown): OptionProblem[] {
  if (typeof o !== 'object' || o === null) return ['object'];
  const x = o as Record<string, unknown>;
  const out: OptionProblem[] = [];
  const key = x.publicKey;
  if (typeof key !== 'string' || !key) out.push('key');
  else if (key.startsWith('sk_')) out.push('secret');
  else if (!key.startsWith('dk_')) out.push('prefix');
  if (!(typeof x.amount === 'number' && x.amount > 0 && Number.isFinite(x.amount))) out.push('amount');
  // The shape only: the service knows the list (core/money/fiat.ts) and answers 422 on `currency` for the rest.
  if (badString(x.currency, /^[A-Za-z]{3}$/)) out.push('currency');
  if (badString(x.cryptoCurrency, /^[A-Za-z0-9]{1,20}$/)) out.push('crypto');
  const c = x.customer as Record<string, unknown> | undefined;
  if (typeof c !== 'object' || c === null) out.push('customer');
  else {
    if (typeof c.email !== 'string' || !EMAIL.test(c.email)) out.push('email');
    if (badString(c.name)) out.push('name');
  }
  if (badString(x.reference)) out.push('reference');
  if (badString(x.apiBase, /^https?:\/\//)) out.push('apiBase');
  if (badString(x.locale)) out.push('locale');
  if (badString(x.theme, /^(auto|light|dark)$/)) out.push('theme');
  for (const k of CALLBACKS) if (x[k] !== undefined && typeof x[k] !== 'function') out.push(k);
  return out;
}

/**
 * The body of POST /sessions from valid options: snake_case, as the API takes it (JSON leaves out what is
 * undefined), the public key among it, never in a header or the URL (README: drop-in contract).
 */
export function sessionBody(o: CheckoutOptions) {
  return {
    public_key: o.publicKey,
    amount: o.amount,
    // An empty currency or cryptoCurrency fails optionProblemCodes; an empty name or reference passes it, and goes.
    currency: o.currency,
    crypto_currency: o.cryptoCurrency,
    customer: { email: o.customer.email, name: o.customer.name || undefined },
    reference: o.reference || undefined,
  };
}
