import { priceText } from '../api-kit/price-text.js';
import type { PaymentLink } from '../core/links/store.js';

/**
 * The page of a reusable link (`/l/{token}`): a plain server-rendered form (no script, so it works in any browser
 * and under the service's Content-Security-Policy), asking the customer's e-mail, the amount when they choose it,
 * and the asset. It posts to itself; a valid visit is redirected to the new payment's hosted page. Every text from
 * the merchant or the customer is escaped here.
 */

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => escapes[ch] ?? ch);

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;background:#f4f5f7;color:#16181d}
main{max-width:26rem;margin:2rem auto;background:#fff;border-radius:12px;padding:1.5rem;box-shadow:0 1px 4px #0002}
h1{font-size:1.4rem;margin:0 0 .25rem}.price{font-size:1.6rem;font-weight:600;margin:.25rem 0 1rem}
label{display:block;font-weight:600;margin:.9rem 0 .3rem}input,select{width:100%;box-sizing:border-box;font:inherit;padding:.6rem;border:1px solid #767b86;border-radius:8px}
.hint{color:#4a4f5a;font-size:.9rem;margin:.3rem 0 0}.error{color:#a4161a;font-weight:600;margin:.3rem 0 0}
button{margin-top:1.2rem;width:100%;font:inherit;font-weight:600;padding:.75rem;border:0;border-radius:8px;background:#1d4ed8;color:#fff;cursor:pointer}
.closed{font-size:1.1rem}@media (prefers-color-scheme:dark){body{background:#111318;color:#e8e9ec}main{background:#1b1e25}.hint{color:#b5b9c2}.error{color:#ff8a8f}input,select{background:#111318;color:inherit}}`;

/** A page of the service's own plain HTML (link and refund claim pages), in the reader's language `lang`. */
export function shell(title: string, body: string, lang = 'en', style = ''): string {
  return `<!doctype html>
<html lang="${esc(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${esc(title)}</title>
<style>${STYLE}${style}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export interface LinkFormState {
  email?: string | undefined;
  amount?: string | undefined;
  /** The customer's locale (Accept-Language), which prices are formatted for. @default 'en' */
  locale?: string | undefined;
  currency?: string | undefined;
  errors?: Record<string, string[]> | undefined;
  /** A failure that is no field's (the link stopped taking payments between showing and sending the form). */
  message?: string | undefined;
}

function fieldError(state: LinkFormState, field: string): string {
  const messages = state.errors?.[field];
  return messages?.length ? `<p class="error" id="${field}-error">${esc(messages.join(' '))}</p>` : '';
}

function described(state: LinkFormState, field: string, hint?: string): string {
  const ids = [hint, state.errors?.[field]?.length ? `${field}-error` : undefined].filter(Boolean);
  return ids.length ? ` aria-describedby="${ids.join(' ')}"` : '';
}

/** The link's form: its name, its price or the amount field with its bounds, e-mail and asset. */
export function linkFormHtml(
  link: PaymentLink,
  assets: { code: string; name: string }[],
  state: LinkFormState = {},
): string {
  const c = link.price_currency;
  const fixed = link.price_amount;
  const locale = state.locale ?? 'en';
  const bounds = [
    link.min_amount === null ? null : `at least ${priceText(link.min_amount, c, locale)}`,
    link.max_amount === null ? null : `at most ${priceText(link.max_amount, c, locale)}`,
  ].filter(Boolean);
  const amountField =
    fixed === null
      ? `<label for="amount">Amount (${esc(c)})</label>
<input id="amount" name="amount" inputmode="decimal" autocomplete="transaction-amount" required value="${esc(state.amount ?? '')}"${described(state, 'amount', bounds.length ? 'amount-hint' : undefined)}${state.errors?.amount ? ' aria-invalid="true"' : ''}>
${bounds.length ? `<p class="hint" id="amount-hint">${esc(bounds.join(', '))}</p>` : ''}${fieldError(state, 'amount')}`
      : '';
  const options = assets
    .map(
      (a) =>
        `<option value="${esc(a.code)}"${a.code === state.currency ? ' selected' : ''}>${esc(a.name)} (${esc(a.code)})</option>`,
    )
    .join('');
  return shell(
    link.name,
    `<h1>${esc(link.name)}</h1>
${fixed === null ? '' : `<p class="price" data-field="price">${esc(priceText(fixed, c, locale))}</p>`}
${state.message ? `<p class="error" role="alert">${esc(state.message)}</p>` : ''}
<form method="post" novalidate>
${amountField}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${esc(state.email ?? '')}"${described(state, 'email', 'email-hint')}${state.errors?.email ? ' aria-invalid="true"' : ''}>
<p class="hint" id="email-hint">For your receipt and if anything goes wrong with the payment.</p>${fieldError(state, 'email')}
<label for="currency">Pay with</label>
<select id="currency" name="currency"${described(state, 'currency')}>${options}</select>${fieldError(state, 'currency')}
<button type="submit">Continue to payment</button>
</form>`,
  );
}

/** A link that takes no payment (deactivated, ended, at its limit): it says so and offers nothing to send. */
export function linkClosedHtml(name: string, message: string): string {
  return shell(name, `<h1>${esc(name)}</h1>\n<p class="closed" role="status">${esc(message)}</p>`);
}

export const linkNotFoundHtml = shell(
  'Payment link not found',
  '<h1>Payment link not found</h1>\n<p>This payment link is incomplete or invalid. Please use the exact link you were given.</p>',
);
