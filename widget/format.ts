/** `754000` ms -> "12:34"; an hour or more -> "1:02:03"; never negative. */
export function countdown(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/**
 * The price in its currency, localised (the currency's own decimals: ¥1,000, 12,35 €). Prices have at most 3
 * decimals and 10 digits before them, which a double holds exactly for display; crypto amounts are never formatted, they are shown as the exact text the service sent. A page's
 * first formatter costs tens of ms on a phone (the browser's locale data loads; later ones take a fraction of a
 * ms), so open() builds one while its request is on the way rather than after the answer.
 */
export function price(amount: string, currency: string, locale: string): string {
  // The service sends only ISO 4217 codes it prices in (core/money/fiat.ts), so this cannot throw.
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(Number(amount));
}
