import { useSignal } from '@preact/signals';
import type { Tolerance } from '../../dashboard-api/view-types.js';
import { ApiError, api, m } from '../api.js';
import { FieldError, Notice } from '../ui/notice.js';
import { useLoad } from '../ui/use-load.js';

/**
 * The underpaid tolerance (issue 30 item 5): how short a payment may be and still finish, in basis points of its
 * amount and as a USD amount converted with each payment's own quote; the larger of the two applies. Owners change
 * it (PUT /merchants/{id}/underpaid-tolerance, audited); viewers read it. Its own section and notice, so the
 * settings page only places it.
 */
export function UnderpaidToleranceSection({ merchantId, owner }: { merchantId: string; owner: boolean }) {
  const data = useLoad(() => api<Tolerance>(m(merchantId, '/underpaid-tolerance')), [merchantId]);
  const notice = useSignal<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const fields = useSignal<Record<string, string[]>>({});
  const t = data.data.value;
  const save = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    const bpsText = String(f.get('bps') ?? '').trim();
    fields.value = {};
    try {
      await api(m(merchantId, '/underpaid-tolerance'), {
        method: 'PUT',
        // A whole number is sent as one; anything else as typed, for the service to name the limit.
        body: { bps: /^\d+$/.test(bpsText) ? Number(bpsText) : bpsText, usd: String(f.get('usd') ?? '').trim() },
      });
      notice.value = { kind: 'ok', text: 'Underpaid tolerance saved' };
      data.reload();
    } catch (x) {
      notice.value = { kind: 'error', text: x instanceof ApiError ? x.message : String(x) };
      if (x instanceof ApiError) fields.value = x.fields;
    }
  };
  return (
    <section aria-labelledby="tolerance-h">
      <h2 id="tolerance-h">Underpaid tolerance</h2>
      {notice.value ? <Notice kind={notice.value.kind}>{notice.value.text}</Notice> : null}
      {data.error.value ? <Notice kind="error">{data.error.value}</Notice> : null}
      {t ? (
        <form class="stack" onSubmit={save} key={`${t.bps}|${t.usd}`}>
          <label>
            Basis points of the amount (100 = 1%)
            <input
              name="bps"
              inputMode="numeric"
              defaultValue={String(t.bps)}
              readOnly={!owner}
              aria-describedby="tolerance-hint bps-err"
            />
          </label>
          <FieldError id="bps-err" messages={fields.value.bps} />
          <label>
            Or an amount in USD
            <input
              name="usd"
              inputMode="decimal"
              defaultValue={t.usd}
              readOnly={!owner}
              aria-describedby="tolerance-hint usd-err"
            />
          </label>
          <FieldError id="usd-err" messages={fields.value.usd} />
          <span class="hint" id="tolerance-hint">
            A payment short by at most the larger of the two finishes (marked underpaid), never one short by more than
            half. The USD amount is converted with the payment’s own quote.
          </span>
          {owner ? (
            <div class="actions">
              <button type="submit" class="primary">
                Save tolerance
              </button>
            </div>
          ) : null}
        </form>
      ) : null}
    </section>
  );
}
