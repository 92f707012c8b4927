import { type OptionProblem, optionProblemCodes } from './options.js';

const WORDS: Record<OptionProblem, string> = {
  object: 'pass an options object',
  key: 'publicKey is required (your dk_ key)',
  secret: 'publicKey must be your public dk_ key: secret keys (sk_) must never reach a browser; rotate it now',
  prefix: 'publicKey must start with dk_',
  amount: 'amount must be a positive number',
  currency: 'currency must be a currency code such as "EUR"',
  crypto: 'cryptoCurrency must be an asset ticker such as "BTC"',
  customer: 'customer.email is required',
  email: 'customer.email must be an e-mail address',
  name: 'customer.name must be a string',
  reference: 'reference must be a string',
  apiBase: 'apiBase must be an http(s) URL',
  locale: 'locale must be a string such as "de"',
  theme: 'theme must be auto, light or dark',
  onSuccess: 'onSuccess must be a function',
  onClose: 'onClose must be a function',
  onExpired: 'onExpired must be a function',
  onError: 'onError must be a function',
  onStatus: 'onStatus must be a function',
};

/** The problems as words for the console and `onError`, e.g. `['amount must be a positive number']`. */
export function wordProblems(codes: OptionProblem[]): string[] {
  return codes.map((c) => WORDS[c]);
}

/** Every problem of `open()`'s options, in words. */
export function optionProblems(o: unknown): string[] {
  return wordProblems(optionProblemCodes(o));
}
