/**
 * A price as people read it, in its own currency and the reader's locale: "$25.00", "25,00 €". The one place prices
 * are formatted on the service's pages, so a currency with other minor units formats by its own rules. The text goes
 * to Intl as a string, which formats the decimal exactly: no float ever holds the amount.
 *
 * @example priceText('25', 'USD', 'en') // "$25.00"
 */
export function priceText(amount: string, currency: string, locale = 'en'): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount as Intl.StringNumericLiteral);
  } catch {
    return `${amount} ${currency}`;
  }
}

/**
 * The customer's locale for formatting, from an Accept-Language header: its first language tag Intl supports, else
 * English. Tags are tried one by one, so a malformed tag is skipped rather than failing the page.
 *
 * @example customerLocale('de-DE,de;q=0.9,en;q=0.8') // "de-DE"
 */
export function customerLocale(acceptLanguage: string | undefined): string {
  for (const part of (acceptLanguage ?? '').split(',').slice(0, 10)) {
    const tag = part.split(';')[0]?.trim() ?? '';
    if (!tag || tag === '*') continue;
    try {
      const [supported] = Intl.NumberFormat.supportedLocalesOf(tag);
      if (supported) return supported;
    } catch {
      // Not a well-formed language tag: try the next one.
    }
  }
  return 'en';
}
