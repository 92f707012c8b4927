import { assetLabel } from '../core/catalog/asset-label.js';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A service timestamp in the reader's own time zone; empty for none. */
export function when(isoText: string | null | undefined): string {
  return isoText ? dateTime.format(new Date(isoText)) : '';
}

/** Status words as merchants read them. */
export function statusLabel(status: string): string {
  return status.replace(/_/g, ' ');
}

/** The middle of a long id or address goes, so tables stay readable; the whole value is in the title. */
export function short(text: string, keep = 10): string {
  return text.length <= keep * 2 + 1 ? text : `${text.slice(0, keep)}…${text.slice(-keep)}`;
}

// Built once: a page's first Intl formatter costs tens of ms while the locale data loads.
const usd = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' });

/**
 * Every amount the dashboard shows, in the checkout's form: a USD price as the checkout prints it ("$59.90", the
 * reader's locale, 2 decimals), a crypto amount as the exact digits the API gave with its asset as people name it
 * ("0.00123 BTC", "25 USDT (Ethereum)": core/catalog/asset-label.ts).
 * The text goes to Intl as a string, which formats the decimal exactly (Intl.NumberFormat v3): no float ever
 * holds the amount. Only USD is a display currency (the service prices in USD alone).
 *
 * @example money('59.9', 'usd') // "$59.90"
 * @example money('0.0012', 'BTC') // "0.0012 BTC"
 * @example money('25', 'USDTERC20') // "25 USDT (Ethereum)"
 */
export function money(amount: string, currency: string): string {
  return currency.toUpperCase() === 'USD'
    ? usd.format(amount as Intl.StringNumericLiteral)
    : `${amount} ${assetLabel(currency)}`;
}
