import { connectWallet, type Eip1193Provider, failureOf } from '../widget/wallet/send-payment.js';

/** A browser wallet the owner may sweep with: announced by EIP-6963, or the older `window.ethereum`. */
export interface BrowserWallet {
  id: string;
  name: string;
  provider: Eip1193Provider;
}

/** The transaction the service built (POST forwarders/sweep-transaction): the browser adds only `from`. */
export interface SweepTransaction {
  network: string;
  chain_id: string;
  to: string;
  data: string;
  forwarders: string[];
  payouts: string[];
}

/**
 * Listens for wallets (EIP-6963 announcements; `window.ethereum` when none announces) and calls `onChange` with
 * the list whenever it grows. Returns the function that stops listening.
 */
export function watchWallets(onChange: (wallets: BrowserWallet[]) => void): () => void {
  const found = new Map<string, BrowserWallet>();
  const announced = (e: Event) => {
    const d = (e as CustomEvent<{ info?: { uuid?: string; name?: string }; provider?: Eip1193Provider }>).detail;
    if (!d?.info?.uuid || !d.provider || found.has(d.info.uuid)) return;
    found.set(d.info.uuid, { id: d.info.uuid, name: d.info.name || 'Browser wallet', provider: d.provider });
    onChange([...found.values()]);
  };
  addEventListener('eip6963:announceProvider', announced);
  dispatchEvent(new Event('eip6963:requestProvider'));
  const injected = (window as { ethereum?: Eip1193Provider }).ethereum;
  if (found.size === 0 && injected) onChange([{ id: 'injected', name: 'Browser wallet', provider: injected }]);
  return () => removeEventListener('eip6963:announceProvider', announced);
}

/**
 * Why the owner's wallet did not send `what` (a refund, a sweep), in the owner's words; `lacking` is what the
 * account must hold for it. One mapper for every wallet send of the dashboard.
 *
 * @example
 * walletFailure(e, { what: 'sweep', lacking: 'enough of the native coin for the network fee' });
 */
export function walletFailure(e: unknown, o: { what: string; lacking: string }): string {
  switch (failureOf(e)) {
    case 'rejected':
      return 'You cancelled in your wallet; nothing was sent.';
    case 'switch':
      return 'Your wallet did not switch to the network. Switch it there and try again.';
    case 'timeout':
      return 'Your wallet did not answer in time. Try again.';
    case 'balance':
      return `This wallet account does not hold ${o.lacking}.`;
    default:
      return `Your wallet could not send the ${o.what}: ${String((e as { message?: unknown } | null)?.message ?? e)}`;
  }
}

/**
 * Sends the service's sweep transaction from the owner's wallet (the wallet-pay steps: account, chain switch, send)
 * and returns its hash. Any account may send it: it pays only the gas, and the funds can go only to the payouts.
 *
 * @example
 * const hash = await sendSweep(wallet.provider, await api(m(id, '/forwarders/sweep-transaction'), { body: { network } }));
 */
export async function sendSweep(provider: Eip1193Provider, tx: SweepTransaction): Promise<string> {
  const { from, request } = await connectWallet(provider, tx);
  return request<string>('eth_sendTransaction', [{ from, to: tx.to, data: tx.data }]);
}
