import { signal } from '@preact/signals';
import { en, type MessageKey, type Messages } from './en.js';

export const LOCALES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'ja', 'zh'] as const;
export type Locale = (typeof LOCALES)[number];

/** The messages in use: English until a locale file arrives (en.ts), so a checkout is never without words. */
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

/**
 * Loads a locale's messages (a JSON file next to the script, fetched in parallel with the session); on any failure
 * the checkout stays usable in English, and a key missing from the file stays English.
 */
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
