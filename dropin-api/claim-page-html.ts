import { assetTicker, networkName } from '../core/catalog/asset-label.js';
import { MAIL_LOCALES, type MailLocale } from '../core/mail/customer-strings.js';
import { fromUnits } from '../core/money/decimal.js';
import type { Claim } from '../core/refunds/claim-address.js';
import { claimPageStrings } from './claim-page-strings.js';
import { esc, shell } from './link-page-html.js';

/**
 * The refund claim page (`/refund/{token}`): plain server-rendered HTML like the reusable link's page (no script, so
 * it works in any browser and under the service's Content-Security-Policy), in the customer's language. It shows who
 * refunds, the exact amount (the API's digits) and the network, and asks for the address once.
 */

const STYLE = `dl{display:grid;grid-template-columns:auto 1fr;gap:.3rem 1rem;margin:1rem 0}dt{font-weight:600}dd{margin:0}
.mono{font-family:ui-monospace,monospace;overflow-wrap:anywhere}.done{font-size:1.1rem}`;

/** The customer's language: the first of ours their browser names, else the one they paid in, else English. */
export function claimLocale(acceptLanguage: string | undefined, paidIn: string | null): MailLocale {
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0]?.trim().toLowerCase().split('-')[0];
    if (tag && (MAIL_LOCALES as readonly string[]).includes(tag)) return tag as MailLocale;
  }
  return paidIn && (MAIL_LOCALES as readonly string[]).includes(paidIn) ? (paidIn as MailLocale) : 'en';
}

function words(claim: Claim, locale: MailLocale) {
  const t = claimPageStrings[locale];
  const r = claim.refund;
  const vars: Record<string, string> = {
    merchant: claim.merchantName,
    asset: assetTicker(r.asset),
    network: networkName(r.network),
  };
  const text = (s: string) => s.replace(/\{(merchant|asset|network)\}/g, (_, k: string) => vars[k] ?? '');
  // `fill` for the page's HTML; `text` for the title, which shell() escapes itself.
  const fill = (s: string) => esc(text(s));
  return { t, fill, text };
}

function facts(claim: Claim, locale: MailLocale): string {
  const { t, fill } = words(claim, locale);
  const r = claim.refund;
  const amount = `${fromUnits(BigInt(r.amount_units), r.decimals)} ${assetTicker(r.asset)}`;
  return `<h1>${fill(t.title)}</h1>
<dl>
<dt>${esc(t.amount)}</dt><dd class="mono" data-field="amount">${esc(amount)}</dd>
<dt>${esc(t.network)}</dt><dd data-field="network">${esc(networkName(r.network))}</dd>
</dl>`;
}

/** The form asking for the address; with `bad`, the address as typed and the reason it was refused. */
export function claimFormHtml(claim: Claim, locale: MailLocale, bad?: { address: string }): string {
  const { t, fill, text } = words(claim, locale);
  const describedBy = bad ? 'address-hint address-error' : 'address-hint';
  return shell(
    text(t.title),
    `${facts(claim, locale)}
<p>${fill(t.intro)}</p>
<form method="post" novalidate>
<label for="address">${fill(t.address)}</label>
<input id="address" name="address" class="mono" autocomplete="off" autocapitalize="none" spellcheck="false" required maxlength="200" value="${esc(bad?.address ?? '')}" aria-describedby="${describedBy}"${bad ? ' aria-invalid="true"' : ''}>
<p class="hint" id="address-hint">${fill(t.hint)}</p>${bad ? `\n<p class="error" id="address-error" role="alert">${fill(t.badAddress)}</p>` : ''}
<button type="submit">${esc(t.submit)}</button>
</form>`,
    locale,
    STYLE,
  );
}

/** The address was taken: it is shown back, with what happens next. */
export function claimDoneHtml(claim: Claim, locale: MailLocale): string {
  const { t, fill, text } = words(claim, locale);
  return shell(
    text(t.title),
    `${facts(claim, locale)}
<p class="done" role="status">${fill(t.done)}</p>
<p class="mono" data-field="address">${esc(claim.refund.address ?? '')}</p>`,
    locale,
    STYLE,
  );
}

/** A link that takes no address (used, expired, or its refund moved on): it says so and offers no form. */
export function claimRefusedHtml(claim: Claim, locale: MailLocale, state: 'used' | 'expired' | 'closed'): string {
  const { t, fill, text } = words(claim, locale);
  return shell(
    text(t.title),
    `${facts(claim, locale)}\n<p class="closed" role="status" data-state="${state}">${fill(t[state])}</p>`,
    locale,
    STYLE,
  );
}

export function claimNotFoundHtml(locale: MailLocale): string {
  const t = claimPageStrings[locale];
  return shell(t.notFoundTitle, `<h1>${esc(t.notFoundTitle)}</h1>\n<p>${esc(t.notFound)}</p>`, locale);
}
