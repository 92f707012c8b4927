import { iso, isoOrNull } from '../core/clock.js';
import { type LinkStatus, linkCurrencies, type linkTotals } from '../core/links/links.js';
import type { PaymentLink } from '../core/links/store.js';
import { Decimal } from '../core/money/decimal.js';
import { qrSvgDataUrl } from '../core/qr/encode.js';
import type { reusableLinkDetailSchema, reusableLinkSchema } from './link-view-schemas.js';
import type { ViewOf } from './payment-schemas.js';

/** The public URL of a reusable link: `PUBLIC_URL/l/{token}`. */
export function linkUrl(link: Pick<PaymentLink, 'token'>, publicUrl: string): string {
  return `${publicUrl.replace(/\/$/, '')}/l/${link.token}`;
}

const amount = (text: string | null) => (text === null ? null : new Decimal(text));

/** A reusable link as both APIs show it; amounts are exact JSON numbers (write with stringifyJson). */
export function linkView(link: PaymentLink, status: LinkStatus, publicUrl: string): ViewOf<typeof reusableLinkSchema> {
  return {
    id: link.id,
    name: link.name,
    url: linkUrl(link, publicUrl),
    status,
    active: link.active === 1,
    amount_type: link.price_amount === null ? ('customer' as const) : ('fixed' as const),
    amount: amount(link.price_amount),
    min_amount: amount(link.min_amount),
    max_amount: amount(link.max_amount),
    price_currency: link.price_currency,
    currencies: linkCurrencies(link),
    max_payments: link.max_payments,
    ends_at: isoOrNull(link.ends_at),
    created_at: iso(link.created_at),
    updated_at: iso(link.updated_at),
  };
}

/** One link with its payment counts and paid totals per price currency, and a QR code of its URL for print. */
export function linkDetailView(
  link: PaymentLink,
  status: LinkStatus,
  publicUrl: string,
  totals: Awaited<ReturnType<typeof linkTotals>>,
): ViewOf<typeof reusableLinkDetailSchema> {
  return {
    ...linkView(link, status, publicUrl),
    qr_code_url: qrSvgDataUrl(linkUrl(link, publicUrl)),
    totals: totals.map((t) => ({
      price_currency: t.priceCurrency,
      payments: t.payments,
      paid_payments: t.paidPayments,
      paid_amount: new Decimal(t.paidAmount),
    })),
  };
}
