import { signal } from '@preact/signals';
import type { ComponentType } from 'preact';
import type { CheckoutState } from '../state.js';

/** Wallet pay's component, once its chunk is in. */
const Loaded = signal<ComponentType<{ state: CheckoutState }> | null>(null);
let asked = false;

/**
 * Where "Pay with <wallet>" goes. For the first payment the service offers to wallets (`wallet` in the view), this
 * asks whether the browser has one (an EIP-6963 announcement, or `window.ethereum`) and only then loads wallet
 * pay's chunk, so checkouts without a wallet never download it; the chunk lists the wallets itself. Kept this
 * small on purpose: it is part of what every checkout loads before its QR.
 */
export function WalletSlot({ state }: { state: CheckoutState }) {
  const C = Loaded.value;
  if (!C && !asked && state.payment.value?.wallet) {
    asked = true;
    // Imported here rather than in chunks.ts, whose every loader CheckoutState keeps.
    const load = () =>
      import('../wallet/wallet-pay.js').then((m) => {
        Loaded.value = m.WalletPay;
      });
    addEventListener('eip6963:announceProvider', load);
    // Wallets answer at once (EIP-6963), each with an announcement.
    dispatchEvent(new Event('eip6963:requestProvider'));
    if ('ethereum' in window) load();
  }
  return C && <C state={state} />;
}
