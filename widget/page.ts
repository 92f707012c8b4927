import { h } from 'preact';
import { DropinApi, type PickerCurrency } from './api.js';
import { Checkout } from './components/checkout.js';
import { loadLocale, pickLocale, t } from './i18n.js';
import { mountHost } from './mount.js';
import pageCss from './page.css?inline';
import { TAG } from './safe.js';
import { CheckoutState } from './state.js';

const REDIRECT_DELAY_MS = 1500;

/**
 * Below the checkout: what is being bought (the order's description, as text) and the merchant's cancel_url,
 * offered until the payment is done. Page-only, so the drop-in's bytes before the QR do not grow.
 */
function PageFooter({ state }: { state: CheckoutState }) {
  const p = state.payment.value;
  const url = p?.cancel_url;
  // A div, not a Fragment: importing Fragment here would make checkout.module.js export one more name to this page,
  // in every drop-in's bytes before the QR.
  return h(
    'div',
    null,
    p?.order_description ? h('p', { class: 'desc', 'data-field': 'order_description' }, p.order_description) : null,
    url && state.screen.value !== 'success' ? h('a', { class: 'cancel', href: url }, t('cancel')) : null,
  );
}

/**
 * The hosted payment page (`/pay/{payment_id}?t=...`): the same components as the popup, as a full page.
 * Finishing redirects to `success_url` (after the customer saw the confirmation); `cancel_url` is offered.
 * A retry after expiry moves the page to the new payment's own address.
 */
export function page(): void {
  const m = /^\/pay\/([a-z0-9_]+)$/.exec(location.pathname);
  const sig = new URLSearchParams(location.search).get('t');
  // The token goes into API paths: only its own alphabet, so a crafted link cannot steer them (`../`).
  if (!m?.[1] || !sig || !/^[\w-]+$/.test(sig)) {
    console.error(`${TAG} this page needs /pay/{payment_id}?t={token}`);
    return;
  }
  const api = new DropinApi(location.origin);
  const state = new CheckoutState(api, {
    onSuccess: (p) => {
      if (!p.success_url) return;
      state.redirecting.value = true;
      setTimeout(() => location.assign(p.success_url as string), REDIRECT_DELAY_MS);
    },
    onExpired: () => {},
    onStatus: () => {},
    onError: (e) => console.error(`${TAG} ${e.message}`),
    onToken: (token, paymentId) => {
      history.replaceState(null, '', `/pay/${paymentId}?t=${encodeURIComponent(token.slice(token.indexOf('.') + 1))}`);
    },
  });
  mountHost(
    'auto',
    h(Checkout, { state, variant: 'page', onClose: () => {}, footer: h(PageFooter, { state }) }),
    pageCss,
  );
  const token = `pt_${m[1]}.${sig}`;
  const lang = loadLocale(api.base, pickLocale(undefined, navigator.languages ?? [navigator.language]));
  void state.start(async () => {
    // The live-status chunk, which the page needs next anyway: a static import would make it part of the
    // checkout module's graph twice over (a namespace helper chunk before every drop-in's QR), and chunks.ts's
    // loader would be one more name the module exports to this page, in every drop-in's bytes before the QR.
    const r = await (await import('./live.js')).readSession(api, token);
    // A link that leaves the asset to the customer: the picker's list, so "Choose another currency" is offered.
    const currencies = r.session.customer_chooses_currency
      ? await api.call<PickerCurrency[]>(`/sessions/${token}/currencies`)
      : null;
    await lang;
    return { session_token: token, ...r, currencies };
  });
}
