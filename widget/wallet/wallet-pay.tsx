import { signal, useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { fill, locale } from '../i18n.js';
import type { CheckoutState } from '../state.js';
import type { CheckoutWallet } from '../types.js';
import { type WalletMessages, walletEn } from './en.js';
import { type Eip1193Provider, failureOf, sendPayment } from './send-payment.js';
import css from './wallet.css?inline';

/** An EIP-6963 announcement's detail: the wallet's name and icon (a data URL), and its EIP-1193 provider. */
export interface AnnouncedWallet {
  info: { uuid: string; name: string; icon: string };
  provider: Eip1193Provider;
}

/** EIP-6963 announcements in order of arrival, from the moment this chunk arrived (a wallet may announce twice). */
const announced = signal<AnnouncedWallet[]>([]);
addEventListener('eip6963:announceProvider', (e) => {
  announced.value = [...announced.value, (e as CustomEvent<AnnouncedWallet>).detail];
});
// Wallets that announced before (the reason this chunk loaded) announce again.
dispatchEvent(new Event('eip6963:requestProvider'));

/** The wallet words in the checkout's locale; null while a locale file is on its way. */
const words = signal<WalletMessages | null>(null);
let wordsFor = '';

/** Fetches the locale's wallet words (locales/wallet/*.json) once; English stays on any failure. */
function loadWords(base: string): void {
  const l = locale.value;
  if (l === wordsFor) return;
  wordsFor = l;
  if (l === 'en') {
    words.value = walletEn;
    return;
  }
  words.value = null;
  fetch(`${base}/dropin/v1/locales/wallet/${l}.json`)
    .then((r) => (r.ok ? (r.json() as Promise<Partial<WalletMessages>>) : {}))
    .catch(() => ({}))
    .then((m) => {
      if (wordsFor === l) words.value = { ...walletEn, ...m };
    });
}

const tw = (key: keyof WalletMessages, vars: Record<string, string> = {}) => fill((words.value ?? walletEn)[key], vars);

/** What one payment's transaction is: sending it once hides the buttons until the amount due changes. */
const txKey = (w: CheckoutWallet) => `${w.to}${w.value}${w.data}`;

/**
 * "Pay with <wallet>" under the QR: one button per installed wallet (EIP-6963; `window.ethereum` when none
 * announces), each named by its wallet. A click sends the payment's own transaction (send-payment.ts); while a
 * request is out, further clicks do nothing. Every outcome is a line under the buttons and the QR stays usable.
 */
export function WalletPay({ state }: { state: CheckoutState }) {
  // Per payment: the checkout remounts this for each payment it shows.
  const pending = useSignal(false);
  const note = useSignal<{ text: string; alert?: boolean; hash?: string; link?: string; key?: string } | null>(null);
  const line = useRef<HTMLParagraphElement>(null);
  const sent = note.value?.hash;
  // The pressed button goes once the transaction is sent: focus moves to the line that says so, not to the page.
  useEffect(() => {
    if (sent) line.current?.focus();
  }, [sent]);
  loadWords(state.api.base);
  const p = state.payment.value;
  const w = p?.wallet;
  if (!p || !words.value || (!w && !note.value)) return null;
  const seen = new Set<string>();
  const list = announced.value.filter((x) => x?.provider && !seen.has(x.info?.uuid) && seen.add(x.info?.uuid));
  const injected = (window as { ethereum?: Eip1193Provider }).ethereum;
  const choices: { name: string | null; icon: string; provider: Eip1193Provider }[] = list.length
    ? list.map((x) => ({ name: String(x.info.name), icon: String(x.info.icon), provider: x.provider }))
    : injected
      ? [{ name: null, icon: '', provider: injected }]
      : [];

  const pay = async (provider: Eip1193Provider) => {
    const due = state.payment.value?.wallet;
    if (pending.value || !due) return;
    pending.value = true;
    note.value = { text: tw('confirmInWallet') };
    try {
      const hash = await sendPayment(provider, due);
      // The hash goes into a link: only its own form. The link is kept, as `wallet` is gone once the deposit shows.
      const ok = /^0x[\da-f]{64}$/i.test(hash);
      note.value = {
        text: tw('sent'),
        key: txKey(due),
        ...(ok && { hash }),
        ...(ok && due.explorer_url && { link: `${due.explorer_url}/tx/${hash}` }),
      };
    } catch (e) {
      note.value = { text: tw(failureOf(e), { currency: p.pay_currency }), alert: true };
    } finally {
      pending.value = false;
    }
  };

  return (
    <div class="wallets">
      <style>{css}</style>
      {w &&
        note.value?.key !== txKey(w) &&
        choices.map((c, i) => (
          <button
            key={i}
            type="button"
            class="pay-wallet"
            aria-disabled={pending.value}
            onClick={() => pay(c.provider)}
          >
            {c.icon.startsWith('data:image/') && <img src={c.icon} alt="" />}
            {c.name === null ? tw('payWithBrowserWallet') : tw('payWith', { wallet: c.name })}
          </button>
        ))}
      {note.value && (
        <p
          ref={line}
          tabIndex={-1}
          role={note.value.alert ? 'alert' : 'status'}
          class={note.value.alert ? 'error' : 'muted'}
          data-field="wallet_status"
        >
          {note.value.text}
          {sent && (
            <>
              {' '}
              <code class="mono tx" data-field="tx_hash">
                {sent}
              </code>{' '}
              {note.value.link && (
                <a class="link" href={note.value.link} target="_blank" rel="noopener noreferrer">
                  {tw('viewOnExplorer')}
                </a>
              )}
            </>
          )}
        </p>
      )}
    </div>
  );
}
