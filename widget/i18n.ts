import { signal } from '@preact/signals';

/**
 * English ships in the script; the other locales are small JSON files fetched next to it only when needed
 * (in parallel with the session), so an English checkout does not pay for nine translations. Here: what the QR
 * screen needs. The English of the picker, the closing screens and the statuses after `waiting` ships with the
 * code that shows them (picker-messages.ts, screens-messages.ts, status-messages.ts, page.ts).
 */
export const en = {
  title: 'Pay with crypto',
  close: 'Close',
  loading: 'Loading…',
  network: 'Network',
  sendExactly: 'Send exactly',
  address: 'Address',
  tag: 'Destination tag / memo',
  tagWarning: 'Include this tag, or your payment cannot be matched.',
  copyAmount: 'Copy amount',
  copyAddress: 'Copy address',
  copyTag: 'Copy tag',
  copied: 'Copied',
  qrAlt: 'Payment QR code',
  openWallet: 'Open in wallet',
  expiresIn: 'Quote expires in',
  waiting: 'Waiting for your payment',
  simulate: 'Simulate payment',
  testMode: 'Test mode',
  errorTitle: 'Checkout unavailable',
  total: 'Total',
};

/** Keys whose English comes with a chunk; a locale file has them all. */
type ChunkKey =
  | 'chooseCurrency'
  | 'search'
  | 'noMatch'
  | 'minimum'
  | 'successTitle'
  | 'successText'
  | 'done'
  | 'redirecting'
  | 'expiredTitle'
  | 'expiredText'
  | 'retry'
  | 'otherCurrency'
  | 'confirming'
  | 'partially_paid'
  | 'finished'
  | 'expired'
  | 'failed'
  | 'refunded'
  | 'received'
  | 'remaining'
  | 'copyRemaining'
  | 'cancel';
export type Messages = typeof en & Record<ChunkKey, string>;
export type MessageKey = keyof Messages;
const english: Partial<Messages> = { ...en };

export const LOCALES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'ja', 'zh'] as const;
export type Locale = (typeof LOCALES)[number];

export const messages = signal<Partial<Messages>>(en);
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
    if (res.ok) messages.value = { ...english, ...((await res.json()) as Partial<Messages>) };
  } catch {
    // English it is.
  }
}

/** A chunk's English: the fallback under whatever locale is loaded (a locale file already has these keys). */
export function addEnglish(more: Partial<Messages>): void {
  Object.assign(english, more);
  messages.value = { ...more, ...messages.value };
}

/** `t('confirming', { n: 1, m: 2 })`: the message with its `{placeholders}` filled; text only, never HTML. */
export function t(key: MessageKey, vars: Record<string, string | number> = {}): string {
  return (messages.value[key] ?? key).replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ''));
}
