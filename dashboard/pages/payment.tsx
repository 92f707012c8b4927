import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { networkName } from '../../core/catalog/asset-label.js';
import type { PaymentDetail } from '../../dashboard-api/view-types.js';
import { ApiError, api, m } from '../api.js';
import { money, when } from '../format.js';
import { onDelivery, onPayment } from '../live.js';
import { pagePath } from '../router.js';
import { membership } from '../session.js';
import { CopyButton } from '../ui/copy.js';
import { DataTable } from '../ui/data-table.js';
import { DeliveryList } from '../ui/deliveries.js';
import { HostedUrl } from '../ui/hosted-url.js';
import { Link } from '../ui/link.js';
import { Notice } from '../ui/notice.js';
import { PageTitle } from '../ui/page.js';
import { Status } from '../ui/status.js';
import { useLoad } from '../ui/use-load.js';
import { PaymentExceptions } from './payment-exceptions.js';
import { PaymentRefunds } from './payment-refunds.js';

type Forwarder = NonNullable<PaymentDetail['forwarder']>;

/** Where a forwarder payment's funds are: swept to the payout (with the transaction), or why not yet. */
function ForwarderFacts({ f }: { f: Forwarder }) {
  const tx = f.sweep_tx ? (
    f.sweep_tx_url ? (
      <a class="mono wrap" href={f.sweep_tx_url} target="_blank" rel="noopener noreferrer">
        {f.sweep_tx}
      </a>
    ) : (
      <span class="mono wrap">{f.sweep_tx}</span>
    )
  ) : null;
  const why = f.relayer_sweep_pending
    ? 'the relayer’s sweep transaction is waiting to be mined'
    : f.sweep_error
      ? `the last sweep failed (${f.sweep_error}); next try ${when(f.next_sweep_at)}`
      : null;
  return (
    <>
      <p>
        Paid to forwarder <span class="mono wrap">{f.address}</span>, which sends only to the payout address{' '}
        <span class="mono wrap">{f.payout}</span>.
      </p>
      <p data-field="sweep">
        {f.swept ? (
          <>
            Swept to <span class="mono wrap">{f.payout}</span> in tx {tx}
            {f.swept_at ? ` (${when(f.swept_at)})` : ''}.
          </>
        ) : !f.has_deposits ? (
          'Nothing to sweep: no deposit yet.'
        ) : (
          <>
            Not swept yet{why ? `: ${why}` : ''}.{tx ? <> An earlier deposit was swept in tx {tx}.</> : null}
          </>
        )}
      </p>
    </>
  );
}

function Facts({ p }: { p: PaymentDetail['payment'] }) {
  const rows: [string, string | null][] = [
    ['Payment id', p.payment_id],
    ['Order id', p.order_id],
    ['Order description', p.order_description],
    ['Customer', [p.customer_name, p.customer_email].filter(Boolean).join(' · ')],
    ['Price', money(p.price_amount, p.price_currency)],
    ['Amount due', money(p.pay_amount, p.pay_currency)],
    ['Paid', money(p.actually_paid, p.pay_currency)],
    ['Network', networkName(p.network)],
    ['Address', p.pay_address],
    ['Extra id', p.extra_id],
    ['Created', when(p.created_at)],
    ['Quote expires', when(p.expires_at)],
    ['Deposits count in full until', when(p.valid_until)],
    ['Confirmed', when(p.confirmed_at)],
  ];
  return (
    <dl class="facts">
      {rows
        .filter(([, v]) => v)
        .map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
    </dl>
  );
}

/**
 * One payment: its facts, a timeline of every status change, its deposits, and the webhook deliveries about it
 * with every attempt, and its refunds. Owners may redeliver, refund and cancel a refund. Live changes reload it.
 */
export function PaymentPage({ merchantId, paymentId }: { merchantId: string; paymentId: string }) {
  const detail = useLoad(
    () => api<PaymentDetail>(m(merchantId, `/payments/${encodeURIComponent(paymentId)}`)),
    [merchantId, paymentId],
  );
  const notice = useSignal<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const owner = membership(merchantId)?.role === 'owner';
  useEffect(() => {
    const stopPayments = onPayment(({ payment }) => {
      if (payment.payment_id === paymentId) detail.reload();
    });
    // An attempt of one of its deliveries was recorded: "pending, next attempt ..." becomes its outcome.
    const stopDeliveries = onDelivery((id) => {
      if (detail.data.value?.deliveries.some((x) => x.delivery_id === id)) detail.reload();
    });
    return () => {
      stopPayments();
      stopDeliveries();
    };
  }, [paymentId]);
  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      notice.value = { kind: 'ok', text: done };
      detail.reload();
    } catch (e) {
      notice.value = { kind: 'error', text: e instanceof ApiError ? e.message : String(e) };
    }
  };
  const d = detail.data.value;
  const p = d?.payment;
  return (
    <>
      <p class="crumbs">
        <Link href={pagePath(merchantId, 'payments')}>Payments</Link>
      </p>
      <PageTitle title={`Payment ${paymentId}`}>
        Payment <span class="mono">{paymentId}</span>
      </PageTitle>
      {detail.error.value ? <Notice kind="error">{detail.error.value}</Notice> : null}
      {notice.value ? <Notice kind={notice.value.kind}>{notice.value.text}</Notice> : null}
      {p && d ? (
        <>
          <p class="headline">
            <Status status={p.payment_status} detail={p.status_detail} />
            {p.overpaid_by ? <span class="mark over"> Overpaid by {money(p.overpaid_by, p.pay_currency)}</span> : null}
            {p.underpaid_by ? (
              <span class="mark under"> Underpaid by {money(p.underpaid_by, p.pay_currency)}</span>
            ) : null}
          </p>
          <Facts p={p} />
          <p class="copy-row">
            <CopyButton text={p.payment_id} label="Copy payment id" /> payment id
            <CopyButton text={p.pay_address} label="Copy address" /> address
          </p>
          <section aria-labelledby="hosted-h">
            <h2 id="hosted-h">Hosted payment page</h2>
            <HostedUrl url={d.hosted_payment_url} />
          </section>
          {d.forwarder ? (
            <section aria-labelledby="forwarder-h">
              <h2 id="forwarder-h">Forwarder</h2>
              <ForwarderFacts f={d.forwarder} />
            </section>
          ) : null}
          <section aria-labelledby="timeline-h">
            <h2 id="timeline-h">Timeline</h2>
            <ol class="timeline">
              {d.timeline.map((e) => (
                <li key={e.sequence} data-sequence={e.sequence}>
                  <span class="seq">#{e.sequence}</span> <Status status={e.payment_status} detail={e.status_detail} />{' '}
                  <time dateTime={e.at}>{when(e.at)}</time>
                </li>
              ))}
            </ol>
          </section>
          <section aria-labelledby="deposits-h">
            <h2 id="deposits-h">Deposits</h2>
            {d.deposits.length === 0 ? (
              <p>No deposit seen yet.</p>
            ) : (
              <DataTable caption="Deposits to this payment’s address">
                <thead>
                  <tr>
                    <th scope="col">Transaction</th>
                    <th scope="col" class="num">
                      Amount
                    </th>
                    <th scope="col">Confirmations</th>
                    <th scope="col">Block</th>
                    <th scope="col">First seen</th>
                    <th scope="col">Marks</th>
                  </tr>
                </thead>
                <tbody>
                  {d.deposits.map((x) => (
                    <tr key={x.txid} data-deposit={x.txid}>
                      <td class="mono wrap">
                        {x.explorer_url ? (
                          <a href={x.explorer_url} target="_blank" rel="noopener noreferrer">
                            {x.txid}
                          </a>
                        ) : (
                          x.txid
                        )}
                      </td>
                      <td class="num">{money(x.amount, x.asset)}</td>
                      <td>
                        {Math.min(x.confirmations, x.required_confirmations)} of {x.required_confirmations}
                      </td>
                      <td>{x.block_height ?? 'mempool'}</td>
                      <td>{when(x.first_seen_at)}</td>
                      <td>
                        {[x.late ? 'late' : '', x.removed ? 'removed (reorg or replaced)' : '']
                          .filter(Boolean)
                          .join(', ')}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </DataTable>
            )}
          </section>
          <PaymentExceptions merchantId={merchantId} p={p} owner={owner} act={act} />
          <PaymentRefunds
            merchantId={merchantId}
            paymentId={p.payment_id}
            currency={p.pay_currency}
            decimals={p.decimals}
            refunds={d.refunds}
            canRefund={['finished', 'partially_paid', 'expired', 'failed'].includes(p.payment_status)}
            owner={owner}
            act={act}
            reload={detail.reload}
          />
          <section aria-labelledby="deliveries-h">
            <h2 id="deliveries-h">Webhook deliveries</h2>
            <DeliveryList
              merchantId={merchantId}
              deliveries={d.deliveries}
              canRedeliver={owner}
              onRedeliver={(id) =>
                act(() => api(m(merchantId, `/webhook-deliveries/${id}/redeliver`), { body: {} }), 'Redelivery queued')
              }
            />
          </section>
        </>
      ) : detail.error.value ? null : (
        <p class="loading">Loading…</p>
      )}
    </>
  );
}
