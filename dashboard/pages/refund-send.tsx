import { useSignal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import type { PaymentRefund } from '../../dashboard-api/view-types.js';
import { type Eip1193Provider, sendPayment } from '../../widget/wallet/send-payment.js';
import { CopyButton } from '../ui/copy.js';
import { Notice } from '../ui/notice.js';
import { WalletChoice } from '../ui/wallet-choice.js';
import { type BrowserWallet, walletFailure, watchWallets } from '../wallet.js';
import { MoneroProofForm } from './refund-monero-proof.js';
import { RefundPsbtActions } from './refund-psbt.js';

/** What the owner's wallet must send (core/refunds/send-instructions.ts), and its QR (dashboard get-payment). */
export type RefundSendRow = Pick<PaymentRefund, 'refund_id' | 'refund_status' | 'amount_units' | 'send' | 'send_qr'>;

/** How often the page asks again while a refund sent from here waits to be seen and confirmed on chain. */
const POLL_MS = 2000;

/**
 * Sends a refund's EVM transaction as the service built it, with wallet pay's steps (account, chain switch, balance
 * check, send): the exact native value to the customer, or `transfer(customer, units)` to the token contract.
 * Quantities go to the wallet as 0x-hex, as EIP-1193 takes them. Returns the transaction hash.
 */
export function sendRefund(
  provider: Eip1193Provider,
  tx: NonNullable<NonNullable<RefundSendRow['send']>['evm_transaction']>,
): Promise<string> {
  return sendPayment(provider, {
    chain_id: `0x${tx.chain_id.toString(16)}`,
    to: tx.to,
    value: `0x${BigInt(tx.value).toString(16)}`,
    data: tx.data === '0x' ? null : tx.data,
    explorer_url: null,
    add_chain: null,
  });
}

/** One ready refund: its send URI with the QR (same text, same digits) and, on EVM, the one-click wallet send. */
function RefundSend({
  r,
  amount,
  wallets,
  proof,
  sentHash,
  onSent,
}: {
  r: RefundSendRow & { send: NonNullable<RefundSendRow['send']> };
  amount: string;
  wallets: BrowserWallet[];
  /** Monero: the form that proves the refund sent by its tx key (a view key cannot see outgoing payments). */
  proof: ComponentChildren;
  sentHash: string | undefined;
  onSent: (hash: string) => void;
}) {
  const error = useSignal('');
  const busy = useSignal(false);
  const chosen = useSignal('');
  const wallet = wallets.find((w) => w.id === chosen.value) ?? wallets[0];
  const tx = r.send.evm_transaction;
  const send = async () => {
    if (!wallet || !tx) return;
    error.value = '';
    busy.value = true;
    try {
      onSent(await sendRefund(wallet.provider, tx));
    } catch (e) {
      error.value = walletFailure(e, {
        what: 'refund',
        lacking: 'the refund amount (or the native coin for the network fee)',
      });
    } finally {
      busy.value = false;
    }
  };
  const headingId = `send-${r.refund_id}`;
  return (
    <section class="stack" aria-labelledby={headingId} data-refund-send={r.refund_id}>
      <h3 id={headingId}>
        Send {amount} (refund <span class="mono">{r.refund_id}</span>)
      </h3>
      <div class="copy-row">
        <span class="mono wrap" data-field="refund-uri">
          {r.send.uri}
        </span>
        <CopyButton text={r.send.uri} label={`Copy the send link of refund ${r.refund_id}`} />
      </div>
      {r.send_qr ? (
        <img
          class="qr"
          src={r.send_qr}
          alt={`QR code to send ${amount} to the customer`}
          width="192"
          height="192"
          data-field="refund-qr"
        />
      ) : null}
      {tx ? (
        sentHash ? (
          <Notice kind="ok">
            Sent in <span class="mono wrap">{sentHash}</span>; the refund is marked sent, then confirmed, once the
            watcher sees it on chain.
          </Notice>
        ) : wallets.length === 0 ? (
          <p class="hint">No browser wallet found: scan the QR code, or send the transaction from any wallet.</p>
        ) : (
          <div class="actions">
            <WalletChoice wallets={wallets} wallet={wallet} chosen={chosen} />
            <button type="button" class="primary" disabled={busy.value} onClick={send}>
              Send {amount} from your wallet
            </button>
          </div>
        )
      ) : null}
      {proof}
      {error.value ? <Notice kind="error">{error.value}</Notice> : null}
    </section>
  );
}

/**
 * The owner's ways to send each ready refund: the URI and QR for any wallet and, on EVM, one click in a browser wallet
 * (EIP-6963). The service never signs; the watcher marks the refund sent and confirmed when the exact amount reaches
 * the customer, and the page asks again meanwhile (`reload`) so the owner sees it happen.
 */
export function RefundSendList({
  merchantId,
  refunds,
  amountOf,
  reload,
}: {
  merchantId: string;
  refunds: RefundSendRow[];
  amountOf: (units: string) => string;
  reload?: (() => void) | undefined;
}) {
  const wallets = useSignal<BrowserWallet[]>([]);
  const sent = useSignal<Record<string, string>>({});
  useEffect(() => watchWallets((w) => (wallets.value = w)), []);
  // Poll while a refund sent from here is not seen yet, or any refund waits for its confirmations.
  // A PSBT made here counts as sent from here: the owner signs and broadcasts it elsewhere, the page waits for it.
  const waiting = refunds.some(
    (r) => r.refund_status === 'sent' || (sent.value[r.refund_id] !== undefined && r.refund_status === 'ready'),
  );
  useEffect(() => {
    if (!waiting || !reload) return;
    const timer = setInterval(reload, POLL_MS);
    return () => clearInterval(timer);
  }, [waiting, reload]);
  const ready = refunds.filter(
    (r): r is RefundSendRow & { send: NonNullable<RefundSendRow['send']> } =>
      r.refund_status === 'ready' && r.send !== null,
  );
  if (ready.length === 0) return null;
  return (
    <>
      {ready.map((r) => (
        <RefundSend
          key={r.refund_id}
          r={r}
          amount={amountOf(r.amount_units)}
          wallets={wallets.value}
          proof={
            r.send.uri.startsWith('monero:') ? (
              <MoneroProofForm merchantId={merchantId} refundId={r.refund_id} onProved={() => reload?.()} />
            ) : /^(bitcoin|litecoin|dogecoin):/.test(r.send.uri) ? (
              <RefundPsbtActions
                merchantId={merchantId}
                refundId={r.refund_id}
                amountOf={amountOf}
                onMade={() => (sent.value = { ...sent.value, [r.refund_id]: sent.value[r.refund_id] ?? '' })}
              />
            ) : null
          }
          sentHash={sent.value[r.refund_id]}
          onSent={(hash) => {
            sent.value = { ...sent.value, [r.refund_id]: hash };
            reload?.();
          }}
        />
      ))}
    </>
  );
}
