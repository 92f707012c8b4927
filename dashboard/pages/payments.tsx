import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { assetLabel } from '../../core/catalog/asset-label.js';
import type { PaymentsPage as Page } from '../../dashboard-api/view-types.js';
import { api, m } from '../api.js';
import { money, short, when } from '../format.js';
import { onPayment } from '../live.js';
import { location, navigate, pagePath } from '../router.js';
import type { PaymentRow } from '../types.js';
import { CopyButton } from '../ui/copy.js';
import { DataTable } from '../ui/data-table.js';
import { Link } from '../ui/link.js';
import { Notice } from '../ui/notice.js';
import { PageTitle } from '../ui/page.js';
import { Status } from '../ui/status.js';
import { useLoad } from '../ui/use-load.js';

const STATUSES = ['waiting', 'confirming', 'partially_paid', 'finished', 'expired', 'failed', 'refunded'];
const FILTERS = ['q', 'status', 'asset', 'from', 'to', 'sort'] as const;
const SORTS = [
  ['', 'Newest first'],
  ['oldest', 'Oldest first'],
  ['amount_desc', 'Largest amount first'],
  ['amount_asc', 'Smallest amount first'],
] as const;

/** The CSV of the list as filtered and sorted now (every page of it): a plain download, the cookie goes along. */
function exportHref(merchantId: string, query: URLSearchParams): string {
  const q = new URLSearchParams();
  for (const k of FILTERS) {
    const v = query.get(k);
    if (v) q.set(k, v);
  }
  return `/dashboard/api${m(merchantId, '/exports/payments.csv')}${q.size ? `?${q}` : ''}`;
}

/** The filters of the list live in the URL, so a filtered view can be bookmarked and the back button undoes one. */
function FilterForm({ merchantId, query }: { merchantId: string; query: URLSearchParams }) {
  const assets = useLoad(() => api<{ code: string }[]>(m(merchantId, '/assets')), [merchantId]);
  const submit = (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const q = new URLSearchParams();
    for (const k of FILTERS) {
      const v = String(form.get(k) ?? '').trim();
      if (v) q.set(k, v);
    }
    navigate(`${pagePath(merchantId, 'payments')}${q.size ? `?${q}` : ''}`);
  };
  return (
    <form aria-label="Filter payments" class="filters" onSubmit={submit} key={query.toString()}>
      <label class="grow">
        Search
        <input
          name="q"
          type="search"
          defaultValue={query.get('q') ?? ''}
          placeholder="Payment id (or its start), order id, e-mail, address or txid"
        />
      </label>
      <label>
        Status
        {/* `selected` on the option, not defaultValue on the select: Preact has no defaultValue for a select, so the
            control showed "Any" over a filtered list. The form is keyed by the query, so this is its first render. */}
        <select name="status">
          <option value="">Any</option>
          {STATUSES.map((s) => (
            <option key={s} value={s} selected={query.get('status') === s}>
              {s.replace('_', ' ')}
            </option>
          ))}
        </select>
      </label>
      <label>
        Asset
        <select name="asset">
          <option value="">Any</option>
          {(assets.data.value ?? []).map((a) => (
            <option key={a.code} value={a.code} selected={query.get('asset')?.toUpperCase() === a.code}>
              {assetLabel(a.code)}
            </option>
          ))}
        </select>
      </label>
      <label>
        From
        <input name="from" type="date" defaultValue={query.get('from') ?? ''} />
      </label>
      <label>
        To
        <input name="to" type="date" defaultValue={query.get('to') ?? ''} />
      </label>
      <label>
        Sort
        <select name="sort">
          {SORTS.map(([v, label]) => (
            <option key={v} value={v} selected={(query.get('sort') ?? '') === v}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <div class="actions">
        <button type="submit" class="primary">
          Filter
        </button>
        {FILTERS.some((k) => query.has(k)) ? <Link href={pagePath(merchantId, 'payments')}>Clear</Link> : null}
        <a href={exportHref(merchantId, query)} download>
          Export CSV
        </a>
      </div>
    </form>
  );
}

/**
 * Payments, newest first, in keyset pages. New payments and status changes arrive over the layout's live stream:
 * on the unfiltered first page they appear in place; elsewhere a notice offers to show them.
 */
export function PaymentsPage({ merchantId }: { merchantId: string }) {
  const query = location.value.query;
  const params = query.toString();
  const list = useLoad(() => api<Page>(m(merchantId, `/payments${params ? `?${params}` : ''}`)), [merchantId, params]);
  const fresh = useSignal(0);
  const plainFirstPage = !FILTERS.some((k) => query.has(k)) && !query.has('cursor');
  useEffect(() => {
    fresh.value = 0;
    return onPayment(({ change, payment }) => {
      const page = list.data.value;
      if (!page) return;
      const at = page.payments.findIndex((p) => p.payment_id === payment.payment_id);
      if (at >= 0) {
        const rows = [...page.payments];
        if ((rows[at] as PaymentRow).sequence <= payment.sequence) rows[at] = payment;
        list.data.value = { ...page, payments: rows };
      } else if (change === 'created') {
        if (plainFirstPage) list.data.value = { ...page, payments: [payment, ...page.payments] };
        else fresh.value += 1;
      }
    });
  }, [merchantId, params]);

  const page = list.data.value;
  const next = page?.next_cursor;
  const nextQuery = new URLSearchParams(query);
  if (next) nextQuery.set('cursor', next);
  return (
    <>
      <PageTitle title="Payments">Payments</PageTitle>
      <FilterForm merchantId={merchantId} query={query} />
      {fresh.value > 0 ? (
        <Notice kind="info">
          {fresh.value} new payment{fresh.value === 1 ? '' : 's'} since this list was loaded.{' '}
          <Link href={pagePath(merchantId, 'payments')}>Show the newest</Link>
        </Notice>
      ) : null}
      {list.error.value ? <Notice kind="error">{list.error.value}</Notice> : null}
      {page ? (
        page.payments.length === 0 ? (
          <p>No payments match.</p>
        ) : (
          <DataTable class="payments" caption="Payments, newest first">
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">Payment</th>
                <th scope="col">Order</th>
                <th scope="col">Status</th>
                <th scope="col" class="num">
                  Price
                </th>
                <th scope="col" class="num">
                  Amount
                </th>
                <th scope="col" class="num">
                  Paid
                </th>
              </tr>
            </thead>
            <tbody>
              {page.payments.map((p) => (
                <tr key={p.payment_id} data-payment={p.payment_id}>
                  <td>{when(p.created_at)}</td>
                  <td class="nowrap">
                    <Link href={`${pagePath(merchantId, 'payments')}/${p.payment_id}`} title={p.payment_id}>
                      {short(p.payment_id, 8)}
                    </Link>
                    <CopyButton text={p.payment_id} label={`Copy payment id ${p.payment_id}`} />
                  </td>
                  <td>{p.order_id ?? ''}</td>
                  <td>
                    <Status status={p.payment_status} detail={p.status_detail} />
                  </td>
                  <td class="num">{money(p.price_amount, p.price_currency)}</td>
                  <td class="num">
                    {money(p.pay_amount, p.pay_currency)}
                    <CopyButton text={p.pay_address} label={`Copy address of ${p.payment_id}`} />
                  </td>
                  <td class="num">{money(p.actually_paid, p.pay_currency)}</td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        )
      ) : list.error.value ? null : (
        <p class="loading">Loading…</p>
      )}
      <div class="pager">
        {query.has('cursor') ? (
          <Link
            href={`${pagePath(merchantId, 'payments')}?${(() => {
              const q = new URLSearchParams(query);
              q.delete('cursor');
              return q;
            })()}`}
          >
            First page
          </Link>
        ) : null}
        {next ? <Link href={`${pagePath(merchantId, 'payments')}?${nextQuery}`}>Next page</Link> : null}
      </div>
    </>
  );
}
