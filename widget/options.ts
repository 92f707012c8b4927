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
  // Each rule as (problem, broken?): one compact line apiece.
  const rule = (code: OptionProblem, broken: unknown) => broken && out.push(code);
  /** An optional string option that is present and not a string matching `re`. */
  const badString = (v: unknown, re: RegExp) => v !== undefined && !(typeof v === 'string' && re.test(v));
  const key = x.publicKey;
  rule(
    typeof key !== 'string' || !key ? 'key' : key.startsWith('sk_') ? 'secret' : 'prefix',
    typeof key !== 'string' || !key.startsWith('dk_'),
  );
  rule('amount', !(typeof x.amount === 'number' && x.amount > 0 && x.amount < Number.POSITIVE_INFINITY));
  rule('currency', badString(x.currency, /^usd$/i));
  rule('crypto', badString(x.cryptoCurrency, /^[A-Za-z0-9]{1,20}$/));
  const c = x.customer as Record<string, unknown> | undefined;
  if (typeof c !== 'object' || c === null) out.push('customer');
  else {
    rule('email', typeof c.email !== 'string' || !EMAIL.test(c.email));
    rule('name', badString(c.name, /^/));
  }
  rule('reference', badString(x.reference, /^/));
  rule('apiBase', badString(x.apiBase, /^https?:\/\//));
  rule('locale', badString(x.locale, /^/));
  rule('theme', badString(x.theme, /^(auto|light|dark)$/));
  for (const k of CALLBACKS) rule(k, x[k] !== undefined && typeof x[k] !== 'function');
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
