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
