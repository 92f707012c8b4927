import { locale } from '../i18n.js';
import type { CheckoutState } from '../state.js';
import type { CheckoutWallet } from '../types.js';
import { type WalletMessages, walletEn } from './en.js';
import { type Eip1193Provider, failureOf, sendPayment } from './send-payment.js';
import css from './wallet.css?inline';

// This chunk takes nothing from the checkout module but `h` and `locale`: every name the module exports to a chunk
// costs each checkout's bytes before the QR. So no hooks and no signals of its own: what it shows is redrawn into
// the checkout's `state.wallet` whenever it changes, and the payment comes from the checkout's own signal.
// (Measured: with `h` alone from the module, the build moved Preact to a chunk of its own, a request before the QR;
// bench/dropin.ts lists what loads before the QR.)

/** An EIP-6963 announcement's detail: the wallet's name and icon (a data URL), and its EIP-1193 provider. */
export interface AnnouncedWallet {
  info: { uuid: string; name: string; icon: string };
  provider: Eip1193Provider;
}

/** The line under the buttons: what the wallet is doing or did (hash and explorer link once sent). */
interface Note {
  text: string;
  alert?: boolean;
  hash?: string;
  link?: string;
  /** The transaction sent (txKey): its buttons stay hidden until the amount due changes. */
  key?: string;
}

/** Wallet pay for one payment on screen: the checkout showing it, the line, whether a request is out. */
interface Offer {
  state: CheckoutState;
  id: string;
  pending: boolean;
  note: Note | null;
  /** The hash the line took focus for, so it does once. */
  focused?: string;
}

/** The payment each checkout of the page shows now, when it is offered to wallets. */
const offers = new Set<Offer>();

/** Draws so far: a new `drawn` prop each time, since signals' shouldComponentUpdate skips equal props. */
let draws = 0;

/** Shows `o`'s current look under its QR, unless its checkout moved on to another payment. */
function draw(o: Offer): void {
  if (offers.has(o)) o.state.wallet.value = <WalletPay key={o.id} offer={o} drawn={++draws} />;
}
const drawAll = () => {
  for (const o of offers) draw(o);
};

/** EIP-6963 announcements in order of arrival, from the moment this chunk arrived (a wallet may announce twice). */
const announced: AnnouncedWallet[] = [];
addEventListener('eip6963:announceProvider', (e) => {
  announced.push((e as CustomEvent<AnnouncedWallet>).detail);
  drawAll();
});
// Wallets that announced before (the reason this chunk loaded) announce again.
dispatchEvent(new Event('eip6963:requestProvider'));

/** The wallet words in the checkout's locale; null while a locale file is on its way. */
let words: WalletMessages | null = null;
let wordsFor = '';

/** Fetches the locale's wallet words (locales/wallet/*.json) once; English stays on any failure. */
function loadWords(base: string): void {
  const l = locale.value;
  if (l === wordsFor) return;
  wordsFor = l;
  if (l === 'en') {
    words = walletEn;
    return;
  }
  words = null;
  fetch(`${base}/dropin/v1/locales/wallet/${l}.json`)
    .then((r) => (r.ok ? (r.json() as Promise<Partial<WalletMessages>>) : {}))
    .catch(() => ({}))
    .then((m) => {
      if (wordsFor !== l) return;
      words = { ...walletEn, ...m };
      drawAll();
    });
}

/**
 * A wallet message with its `{placeholders}` filled, as i18n.ts's t() fills the checkout's: the same rule, kept
 * here rather than shared, as a helper the module exported to this chunk would cost the bytes before the QR.
 */
const tw = (key: keyof WalletMessages, vars: Record<string, string> = {}) =>
  (words ?? walletEn)[key].replace(/\{(\w+)\}/g, (_, k: string) => vars[k] ?? '');

/** What one payment's transaction is: sending it once hides the buttons until the amount due changes. */
const txKey = (w: CheckoutWallet) => `${w.to}${w.value}${w.data}`;

/**
 * Wallet pay under the QR of the payment `state` shows now (called by wallet/discover.ts once the QR is on
 * screen and the browser has a wallet). Each payment starts afresh: no line, nothing pending.
 */
export function offerWallet(state: CheckoutState): void {
  const id = state.payment.value?.payment_id;
  if (!id) return;
  for (const o of offers) if (o.state === state) offers.delete(o);
  const o: Offer = { state, id, pending: false, note: null };
  offers.add(o);
  loadWords(state.api.base);
  draw(o);
}

/**
 * "Pay with <wallet>": one button per installed wallet (EIP-6963; `window.ethereum` when none announces), each
 * named by its wallet. A click sends the payment's own transaction (send-payment.ts); while a request is out,
 * further clicks do nothing. Every outcome is a line under the buttons and the QR stays usable.
 */
function WalletPay({ offer: o }: { offer: Offer; drawn: number }) {
  const p = o.state.payment.value;
  const w = p?.wallet;
  const note = o.note;
  if (p?.payment_id !== o.id || !words || (!w && !note)) return null;
  const sent = note?.hash;
  const seen = new Set<string>();
  const list = announced.filter((x) => x?.provider && !seen.has(x.info?.uuid) && seen.add(x.info?.uuid));
  const injected = (window as { ethereum?: Eip1193Provider }).ethereum;
  const choices: { name: string | null; icon: string; provider: Eip1193Provider }[] = list.length
    ? list.map((x) => ({ name: String(x.info.name), icon: String(x.info.icon), provider: x.provider }))
    : injected
      ? [{ name: null, icon: '', provider: injected }]
      : [];

  const pay = async (provider: Eip1193Provider) => {
    const due = o.state.payment.value?.wallet;
    if (o.pending || !due) return;
    o.pending = true;
    o.note = { text: tw('confirmInWallet') };
    draw(o);
    try {
      const hash = await sendPayment(provider, due);
      // The hash goes into a link: only its own form. The link is kept, as `wallet` is gone once the deposit shows.
      const ok = /^0x[\da-f]{64}$/i.test(hash);
      o.note = {
        text: tw('sent'),
        key: txKey(due),
        ...(ok && { hash }),
        ...(ok && due.explorer_url && { link: `${due.explorer_url}/tx/${hash}` }),
      };
    } catch (e) {
      o.note = { text: tw(failureOf(e), { currency: p.ticker }), alert: true };
    } finally {
      o.pending = false;
      draw(o);
    }
  };

  // The pressed button goes once the transaction is sent: focus moves to the line that says so, not to the page.
  const focusSent = (line: HTMLParagraphElement | null) => {
    if (line && sent && o.focused !== sent) {
      o.focused = sent;
      line.focus();
    }
  };

  return (
    <div class="wallets">
      <style>{css}</style>
      {w &&
        note?.key !== txKey(w) &&
        choices.map((c, i) => (
          <button key={i} type="button" class="pay-wallet" aria-disabled={o.pending} onClick={() => pay(c.provider)}>
            {c.icon.startsWith('data:image/') && <img src={c.icon} alt="" />}
            {c.name === null ? tw('payWithBrowserWallet') : tw('payWith', { wallet: c.name })}
          </button>
        ))}
      {note && (
        <p
          ref={focusSent}
          tabIndex={-1}
          role={note.alert ? 'alert' : 'status'}
          class={note.alert ? 'error' : 'muted'}
          data-field="wallet_status"
        >
          {note.text}
          {sent && ' '}
          {sent && (
            <code class="mono tx" data-field="tx_hash">
              {sent}
            </code>
          )}
          {sent && note.link && ' '}
          {sent && note.link && (
            <a class="link" href={note.link} target="_blank" rel="noopener noreferrer">
              {tw('viewOnExplorer')}
            </a>
          )}
        </p>
      )}
    </div>
  );
}
