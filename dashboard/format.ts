import { assetLabel } from '../core/catalog/asset-label.js';
import { fiatCode } from '../core/money/fiat.js';

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

// Built once per currency: a page's first Intl formatter costs tens of ms while the locale data loads.
const formatters = new Map<string, Intl.NumberFormat>();
function fiatFormat(code: string): Intl.NumberFormat {
  let f = formatters.get(code);
  if (!f) {
    f = new Intl.NumberFormat(undefined, { style: 'currency', currency: code });
    formatters.set(code, f);
  }
  return f;
}

/**
 * Every amount the dashboard shows, in the checkout's form: a USD price as the checkout prints it ("$59.90", the
 * reader's locale, 2 decimals), a crypto amount as the exact digits the API gave with its asset as people name it
 * ("0.00123 BTC", "25 USDT (Ethereum)": core/catalog/asset-label.ts).
 * The text goes to Intl as a string, which formats the decimal exactly (Intl.NumberFormat v3): no float ever
 * holds the amount. A price currency (core/money/fiat.ts) is formatted with its own decimals ("¥2,000", "€19.99").
 *
 * @example money('2000', 'JPY') // "¥2,000"
 *
 * @example money('59.9', 'usd') // "$59.90"
 * @example money('0.0012', 'BTC') // "0.0012 BTC"
 * @example money('25', 'USDTERC20') // "25 USDT (Ethereum)"
 */
export function money(amount: string, currency: string): string {
  const code = fiatCode(currency);
  return code ? fiatFormat(code).format(amount as Intl.StringNumericLiteral) : `${amount} ${assetLabel(currency)}`;
}
