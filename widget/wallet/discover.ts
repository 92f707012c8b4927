import type { CheckoutState } from '../state.js';

/** Wallet pay's chunk, requested once per page: every checkout on the page shares it. */
let chunk: Promise<typeof import('./wallet-pay.js')> | undefined;

/**
 * Once a payment's QR is on screen (live.ts): when the service offers that payment to wallets (`wallet` in the
 * view), asks whether the browser has one (an EIP-6963 announcement, or `window.ethereum`) and only then loads
 * wallet pay's chunk, which shows itself under the QR (`state.wallet`); checkouts without a wallet never download
 * it. Part of the live-status chunk rather than the checkout module: nothing here is needed to paint the QR, and
 * wallets announce whenever asked, so asking after the QR finds the same wallets.
 */
export function offerWallet(state: CheckoutState): void {
  if (!state.payment.value?.wallet) return;
  // Once per payment: a wallet announcing again later must not start its wallet pay afresh.
  let asked = false;
  const load = () => {
    if (asked) return;
    asked = true;
    removeEventListener('eip6963:announceProvider', load);
    chunk ??= import('./wallet-pay.js');
    chunk.then(
      (m) => m.offerWallet(state),
      () => {
        // Not loaded (the network went away): the next payment shown asks again; the QR works meanwhile.
        chunk = undefined;
      },
    );
  };
  // Once a wallet answered on this page, its chunk is in (or coming): no need to ask again.
  if (chunk) {
    load();
    return;
  }
  addEventListener('eip6963:announceProvider', load);
  // Wallets answer at once (EIP-6963), each with an announcement; the chunk lists them itself.
  dispatchEvent(new Event('eip6963:requestProvider'));
  if ('ethereum' in window) load();
}
