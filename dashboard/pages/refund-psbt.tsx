import { useSignal } from '@preact/signals';
import type { RefundPsbt } from '../../dashboard-api/view-types.js';
import { ApiError, api, m } from '../api.js';
import { CopyButton } from '../ui/copy.js';
import { Notice } from '../ui/notice.js';

/**
 * A Bitcoin-family refund's unsigned PSBT, beside its BIP21 QR: made on demand (it asks the node what is unspent),
 * then copied as base64 or downloaded as the binary `.psbt` file wallets open (Sparrow, Electrum, Bitcoin Core, a
 * hardware wallet's companion app). A refusal says why there is none (outputs spent, fee not covered).
 */
export function RefundPsbtActions(props: {
  merchantId: string;
  refundId: string;
  amountOf: (units: string) => string;
  /** The PSBT was made: the page watches for the refund to be seen on chain. */
  onMade: () => void;
}) {
  const got = useSignal<RefundPsbt | null>(null);
  const error = useSignal('');
  const busy = useSignal(false);
  const fpId = `fingerprint-${props.refundId}`;
  return (
    <div class="stack">
      <form
        class="inline-form"
        aria-label={`PSBT of refund ${props.refundId}`}
        data-field="refund-psbt"
        onSubmit={async (e) => {
          e.preventDefault();
          const fp = String(new FormData(e.currentTarget as HTMLFormElement).get('master_fingerprint') ?? '').trim();
          error.value = '';
          busy.value = true;
          try {
            const query = fp ? `?master_fingerprint=${encodeURIComponent(fp)}` : '';
            got.value = await api<RefundPsbt>(m(props.merchantId, `/refunds/${props.refundId}/psbt${query}`));
            props.onMade();
          } catch (x) {
            got.value = null;
            error.value =
              x instanceof ApiError && Object.keys(x.fields).length > 0
                ? Object.values(x.fields).flat().join(' ')
                : String((x as Error).message ?? x);
          } finally {
            busy.value = false;
          }
        }}
      >
        <p class="hint">
          Or spend the payment's own coins back: an unsigned PSBT for your wallet or hardware signer to sign.
        </p>
        <label for={fpId}>
          Master fingerprint (optional, for hardware wallets)
          <input id={fpId} name="master_fingerprint" autocomplete="off" spellcheck={false} maxLength={8} />
        </label>
        <button type="submit" disabled={busy.value}>
          Make PSBT
        </button>
      </form>
      {got.value ? (
        <div class="stack" data-field="refund-psbt-ready">
          <p>
            Spends {got.value.inputs.length} output{got.value.inputs.length === 1 ? '' : 's'}; fee{' '}
            {props.amountOf(got.value.fee_units)} ({got.value.fee_rate_units_per_vbyte} base units per vbyte,{' '}
            {got.value.vsize} vbytes)
            {got.value.change_units !== '0' ? `; change ${props.amountOf(got.value.change_units)} back to you` : ''}.
          </p>
          <div class="actions">
            <CopyButton text={got.value.psbt} label={`Copy PSBT of refund ${props.refundId}`} />
            <a
              class="button"
              href={`data:application/octet-stream;base64,${got.value.psbt}`}
              download={`refund-${props.refundId}.psbt`}
            >
              Download PSBT
            </a>
          </div>
        </div>
      ) : null}
      {error.value ? <Notice kind="error">{error.value}</Notice> : null}
    </div>
  );
}
