import { signal } from '@preact/signals';

/**
 * English ships in the script; the other locales are small JSON files fetched next to it only when needed
 * (in parallel with the session), so an English checkout does not pay for nine translations.
 */
export const en = {
  title: 'Pay with crypto',
  close: 'Close',
  loading: 'Loading…',
  chooseCurrency: 'Choose a currency',
  search: 'Search currencies',
  noMatch: 'No currency matches your search',
  minimum: 'Minimum {amount}',
  network: 'Network',
  sendExactly: 'Send exactly',
  address: 'Address',
  tag: 'Destination tag / memo',
  tagWarning: 'Include this tag, or your payment cannot be matched.',
  copyAmount: 'Copy amount',
  copyAddress: 'Copy address',
  copyTag: 'Copy tag',
  copyRemaining: 'Copy remaining amount',
  copied: 'Copied',
  qrAlt: 'QR code with the payment details',
  openWallet: 'Open in wallet',
  expiresIn: 'Quote expires in',
  waiting: 'Waiting for your payment',
  confirming: 'Payment seen, confirming: {n} of {m}',
  partially_paid: 'Partly paid: send the remaining {amount}',
  finished: 'Payment complete',
  expired: 'Expired',
  failed: 'Payment failed',
  refunded: 'Refunded',
  received: 'Received',
  remaining: 'Remaining',
  simulate: 'Simulate payment',
  testMode: 'Test mode',
  otherCurrency: 'Choose another currency',
  successTitle: 'Payment received',
  successText: 'Thank you! Your payment is confirmed.',
  done: 'Done',
  redirecting: 'Returning to the store…',
  expiredTitle: 'This quote has expired',
  expiredText: 'Crypto prices move, so a quote holds for a limited time. Start again for a new one.',
  retry: 'Start again',
  errorTitle: 'Checkout unavailable',
  cancel: 'Cancel and return to the store',
  total: 'Total',
};

export type Messages = typeof en;
export type MessageKey = keyof Messages;

export const LOCALES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'ja', 'zh'] as const;
export type Locale = (typeof LOCALES)[number];

export const messages = signal<Messages>(en);
export const locale = signal<Locale>('en');

/** The forced locale when it is one we have, else the first of the browser's languages we have, else English. */
export function pickLocale(forced: string | undefined, languages: readonly string[]): Locale {
  for (const tag of forced ? [forced] : languages) {
    const base = tag.toLowerCase().split('-')[0] as Locale;
    if ((LOCALES as readonly string[]).includes(base)) return base;
  }
  return 'en';
}

/** Loads a locale's messages; on any failure the checkout stays usable in English. */
export async function loadLocale(base: string, l: Locale): Promise<void> {
  locale.value = l;
  if (l === 'en') return;
  try {
    const res = await fetch(`${base}/dropin/v1/locales/${l}.json`);
    if (res.ok) messages.value = { ...en, ...((await res.json()) as Partial<Messages>) };
  } catch {
    // English it is.
  }
}

/** `t('confirming', { n: 1, m: 2 })`: the message with its `{placeholders}` filled; text only, never HTML. */
export function t(key: MessageKey, vars: Record<string, string | number> = {}): string {
  return messages.value[key].replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ''));
}
