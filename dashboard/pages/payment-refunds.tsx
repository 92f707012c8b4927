import type { PaymentRefund } from '../../dashboard-api/view-types.js';
import { ApiError, api, m } from '../api.js';
import { money, when } from '../format.js';
import { ConfirmButton } from '../ui/confirm.js';
import { CopyButton } from '../ui/copy.js';
import { DataTable } from '../ui/data-table.js';
import { ClaimLinkFields, claimLinkBody, RefundClaim, rememberClaimLink } from './refund-claim.js';
import { RefundSendList } from './refund-send.js';

/** A refund as GET /merchants/{id}/payments/{payment_id} lists it (core/refunds/views.ts `refundViews`). */
export type RefundRow = PaymentRefund;

const STATUS_TEXT: Record<RefundRow['refund_status'], string> = {
  awaiting_address: 'awaiting address',
  ready: 'ready to send',
  sent: 'sent (seen on chain)',
  confirmed: 'confirmed',
  cancelled: 'cancelled',
};

/** Base units -> exact decimal text, with bigint only (the JSON number of `amount` may not hold every wei). */
function unitsText(units: string, decimals: number): string {
  if (decimals === 0) return units;
  const s = units.padStart(decimals + 1, '0');
  const frac = s.slice(-decimals).replace(/0+$/, '');
  return frac ? `${s.slice(0, -decimals)}.${frac}` : s.slice(0, -decimals);
}

/** Exact decimal text -> base units, or null when it is not an amount of at most `decimals` decimals. */
function textUnits(text: string, decimals: number): string | null {
  const m1 = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m1) return null;
  const frac = (m1[2] ?? '').replace(/0+$/, '');
  if (frac.length > decimals) return null;
  return BigInt((m1[1] ?? '0') + frac.padEnd(decimals, '0')).toString();
}

/** A 422's field messages in the notice itself ("amount_units: Too much: at most ..."), not only "Validation failed". */
function withFields(e: unknown): unknown {
  if (!(e instanceof ApiError) || Object.keys(e.fields).length === 0) return e;
  const text = Object.entries(e.fields)
    .map(([k, v]) => `${k}: ${v.join(' ')}`)
    .join('; ');
  return new ApiError(text, e.status, e.fields);
}

/**
 * A payment's refunds and, for owners, a refund form: the amount in the paid asset (empty: the excess of an overpaid
 * payment, else all that is left), the customer's address (checked by the service for the network), and a fresh
 * two-factor code where the merchant requires one. The service never sends: the owner's wallet does, and the
 * watcher marks the refund sent and confirmed when its exact amount reaches the address.
 */
export function PaymentRefunds(props: {
  merchantId: string;
  paymentId: string;
  currency: string;
  decimals: number;
  refunds: RefundRow[];
  canRefund: boolean;
  owner: boolean;
  act: (work: () => Promise<unknown>, done: string) => Promise<void>;
  /** Reads the payment again (while a refund sent from here waits to be seen on chain). */
  reload?: () => void;
}) {
  const { merchantId, paymentId, currency, decimals, refunds, owner } = props;
  return (
    <section aria-labelledby="refunds-h">
      <h2 id="refunds-h">Refunds</h2>
      {owner && props.canRefund ? (
        <form
          class="inline-form"
          aria-label="Refund this payment"
          onSubmit={(e) => {
            e.preventDefault();
            const form = e.currentTarget as HTMLFormElement;
            const f = new FormData(form);
            const amount = String(f.get('amount') ?? '').trim();
            const units = amount ? textUnits(amount, decimals) : undefined;
            const body: Record<string, string> = {};
            if (units === null) {
              void props.act(
                () =>
                  Promise.reject(new ApiError(`amount: a ${currency} amount has at most ${decimals} decimals`, 422)),
                'Refund created',
              );
              return;
            }
            if (units !== undefined) body.amount_units = units;
            for (const k of ['address', 'reason', 'code']) {
              const v = String(f.get(k) ?? '').trim();
              if (v) body[k] = v;
            }
            void props.act(
              () =>
                api(m(merchantId, `/payments/${paymentId}/refunds`), { body: { ...body, ...claimLinkBody(f) } })
                  .then((created) => {
                    rememberClaimLink(created);
                    form.reset();
                  })
                  .catch((e: unknown) => Promise.reject(withFields(e))),
              'Refund created: send it from your wallet to the address',
            );
          }}
        >
          <label>
            Amount in {currency} (empty: all that is left, or the excess)
            <input name="amount" inputMode="decimal" autocomplete="off" />
          </label>
          <label>
            Customer’s address
            <input name="address" autocomplete="off" spellcheck={false} />
          </label>
          <ClaimLinkFields />
          <label>
            Reason (optional)
            <input name="reason" maxLength={500} autocomplete="off" />
          </label>
          <label>
            Two-factor code (if required)
            <input name="code" inputMode="numeric" autocomplete="one-time-code" maxLength={40} />
          </label>
          <button type="submit" class="primary">
            Create refund
          </button>
        </form>
      ) : null}
      {refunds.length === 0 ? (
        <p>No refunds.</p>
      ) : (
        <DataTable caption="Refunds of this payment">
          <thead>
            <tr>
              <th scope="col">Refund</th>
              <th scope="col" class="num">
                Amount
              </th>
              <th scope="col">Status</th>
              <th scope="col">Address</th>
              <th scope="col">Transaction</th>
              <th scope="col">Created</th>
              {owner ? <th scope="col">Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {refunds.map((r) => (
              <tr key={r.refund_id} data-refund={r.refund_id}>
                <td class="mono">{r.refund_id}</td>
                <td class="num">{money(unitsText(r.amount_units, decimals), r.currency)}</td>
                <td data-refund-status={r.refund_status}>
                  {STATUS_TEXT[r.refund_status]}
                  {r.other_transfers.length > 0
                    ? ` (also seen: ${r.other_transfers.map((o) => money(unitsText(o.amount_units, decimals), r.currency)).join(', ')}, not the exact amount)`
                    : ''}
                </td>
                <td class="mono wrap">
                  {r.address ? (
                    <>
                      {r.address} <CopyButton text={r.address} label="Copy refund address" />
                    </>
                  ) : (
                    'not given yet'
                  )}
                  <RefundClaim merchantId={merchantId} refund={r} owner={owner} act={props.act} />
                </td>
                <td class="mono wrap">
                  {r.txid && r.explorer_url ? (
                    <a href={r.explorer_url} target="_blank" rel="noopener noreferrer">
                      {r.txid}
                    </a>
                  ) : (
                    (r.txid ?? '')
                  )}
                </td>
                <td>{when(r.created_at)}</td>
                {owner ? (
                  <td>
                    {r.refund_status === 'awaiting_address' || r.refund_status === 'ready' ? (
                      <ConfirmButton
                        label="Cancel refund"
                        title={`Cancel refund ${r.refund_id}?`}
                        confirmLabel="Cancel refund"
                        danger
                        onConfirm={() =>
                          props.act(
                            () => api(m(merchantId, `/refunds/${r.refund_id}/cancel`), { method: 'POST' }),
                            'Refund cancelled',
                          )
                        }
                      >
                        <p>Only cancel it if you have not sent it: what it holds can then be refunded again.</p>
                      </ConfirmButton>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
      {owner ? (
        <RefundSendList
          merchantId={merchantId}
          refunds={refunds}
          amountOf={(u) => money(unitsText(u, decimals), currency)}
          reload={props.reload}
        />
      ) : null}
    </section>
  );
}
