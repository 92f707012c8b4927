import { useSignal } from '@preact/signals';
import { ApiError, api, m } from '../api.js';
import { Notice } from '../ui/notice.js';

/**
 * A Monero refund's proof: the txid and the transaction key the owner's wallet gives for the transfer it made (a view
 * key cannot see outgoing payments). The service checks them as monero's `check_tx_key` does and marks the refund
 * sent; a refusal names the field (`tx_key`: not this transaction's key; `txid`: another amount or address).
 */
export function MoneroProofForm(props: { merchantId: string; refundId: string; onProved: () => void }) {
  const error = useSignal('');
  const busy = useSignal(false);
  const ids = { txid: `txid-${props.refundId}`, key: `txkey-${props.refundId}` };
  return (
    <form
      class="inline-form"
      aria-label={`Prove refund ${props.refundId} sent`}
      onSubmit={async (e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget as HTMLFormElement);
        error.value = '';
        busy.value = true;
        try {
          await api(m(props.merchantId, `/refunds/${props.refundId}/monero-proof`), {
            body: { txid: String(f.get('txid') ?? '').trim(), tx_key: String(f.get('tx_key') ?? '').trim() },
          });
          props.onProved();
        } catch (x) {
          error.value =
            x instanceof ApiError && Object.keys(x.fields).length > 0
              ? Object.entries(x.fields)
                  .map(([k, v]) => `${k}: ${v.join(' ')}`)
                  .join('; ')
              : String((x as Error).message ?? x);
        } finally {
          busy.value = false;
        }
      }}
    >
      <p class="hint">Sent it from your Monero wallet? Paste its transaction id and transaction key (get_tx_key).</p>
      <label for={ids.txid}>
        Transaction id
        <input id={ids.txid} name="txid" autocomplete="off" spellcheck={false} maxLength={200} required />
      </label>
      <label for={ids.key}>
        Transaction key
        <input id={ids.key} name="tx_key" autocomplete="off" spellcheck={false} maxLength={2000} required />
      </label>
      <button type="submit" disabled={busy.value}>
        Prove sent
      </button>
      {error.value ? <Notice kind="error">{error.value}</Notice> : null}
    </form>
  );
}
