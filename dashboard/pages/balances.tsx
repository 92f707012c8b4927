import { assetLabel } from '../../core/catalog/asset-label.js';
import type { Balance } from '../../dashboard-api/view-types.js';
import { api, m } from '../api.js';
import { money, when } from '../format.js';
import { DataTable } from '../ui/data-table.js';
import { Notice } from '../ui/notice.js';
import { PageTitle } from '../ui/page.js';
import { useLoad } from '../ui/use-load.js';

const today = () => new Date().toISOString().slice(0, 10);
const monthAgo = () => new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);

/**
 * Per asset, what reached the merchant's own addresses (confirmed) and what is still confirming, with USD values;
 * and a CSV export of the payments created in a date range (a plain download: the browser sends the cookie).
 */
export function BalancesPage({ merchantId }: { merchantId: string }) {
  const list = useLoad(() => api<Balance[]>(m(merchantId, '/balances')), [merchantId]);
  const rows = list.data.value;
  return (
    <>
      <PageTitle title="Balances">Balances</PageTitle>
      {list.error.value ? <Notice kind="error">{list.error.value}</Notice> : null}
      {rows === null ? (
        list.error.value ? null : (
          <p class="loading">Loading…</p>
        )
      ) : rows.length === 0 ? (
        <p>Nothing received yet.</p>
      ) : (
        <DataTable caption="Balances per asset">
          <thead>
            <tr>
              <th scope="col">Asset</th>
              <th scope="col" class="num">
                Confirmed
              </th>
              <th scope="col" class="num">
                Confirmed (USD)
              </th>
              <th scope="col" class="num">
                Pending
              </th>
              <th scope="col" class="num">
                Pending (USD)
              </th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((b) => (
              <tr key={b.currency} data-asset={b.currency}>
                <th scope="row">{assetLabel(b.currency)}</th>
                <td class="num">{money(b.amount, b.currency)}</td>
                <td class="num">
                  {money(b.usd_amount, 'USD')}
                  {b.fiat ? <span class="fiat"> · {money(b.fiat.amount, b.fiat.currency)}</span> : null}
                </td>
                <td class="num">{money(b.pending_amount, b.currency)}</td>
                <td class="num">
                  {money(b.pending_usd_amount, 'USD')}
                  {b.fiat ? <span class="fiat"> · {money(b.fiat.pending_amount, b.fiat.currency)}</span> : null}
                </td>
                <td>{when(b.updated_at)}</td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
      <section aria-labelledby="export-h">
        <h2 id="export-h">Export payments</h2>
        <form
          class="filters"
          method="get"
          action={`/dashboard/api/merchants/${encodeURIComponent(merchantId)}/exports/payments.csv`}
        >
          <label>
            From
            <input name="from" type="date" required defaultValue={monthAgo()} />
          </label>
          <label>
            To
            <input name="to" type="date" required defaultValue={today()} />
          </label>
          <div class="actions">
            <button type="submit" class="primary">
              Download CSV
            </button>
          </div>
        </form>
        <p class="hint">Days are UTC; the end day is included. Amounts are exact, as the API gives them.</p>
      </section>
    </>
  );
}
