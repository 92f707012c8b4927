import { useSignal } from '@preact/signals';
import type { AuditEntries } from '../../dashboard-api/view-types.js';
import { api, m } from '../api.js';
import { when } from '../format.js';
import { DataTable } from '../ui/data-table.js';
import { Notice } from '../ui/notice.js';
import { PageTitle } from '../ui/page.js';
import { useLoad } from '../ui/use-load.js';

type Entry = AuditEntries['entries'][number];

/** The filter's groups of actions (the API takes a group or one action). */
const GROUPS = [
  ['', 'Any'],
  ['sign_in', 'Sign-ins'],
  ['password', 'Passwords'],
  ['refund', 'Refunds'],
  ['payment', 'Payment links and marked refunds (old)'],
  ['checkout', 'Tried checkouts'],
  ['link', 'Reusable links'],
  ['merchant', 'New stores'],
  ['key', 'API keys'],
  ['webhook', 'Webhooks'],
  ['settings', 'Settings'],
  ['xpub', 'Extended public key'],
  ['payout', 'Payout address'],
  ['monero_keys', 'Monero view key'],
  ['user', 'Users and roles'],
  ['two_factor', 'Two-factor sign-in'],
  ['mail', 'E-mail'],
] as const;

const DETAIL_ORDER = (d: Record<string, unknown>) =>
  Object.entries(d)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : String(v)}`)
    .join('; ');

/**
 * Who did what to this merchant and when, from which address: newest first, filtered by kind of action, person and
 * days, a page at a time; the same filters download as CSV. Never a secret: the service writes none into it.
 */
export function AuditPage({ merchantId }: { merchantId: string }) {
  const filter = useSignal<Record<string, string>>({});
  const more = useSignal<{ entries: Entry[]; next: string | null }>({ entries: [], next: null });
  const query = (extra: Record<string, string> = {}) =>
    new URLSearchParams(Object.entries({ ...filter.value, ...extra }).filter(([, v]) => v !== '')).toString();
  const page = useLoad(async () => {
    const r = await api<AuditEntries>(m(merchantId, `/audit?${query()}`));
    more.value = { entries: r.entries, next: r.next_cursor };
    return r;
  }, [merchantId, JSON.stringify(filter.value)]);
  const loadMore = async () => {
    if (!more.value.next) return;
    const r = await api<AuditEntries>(m(merchantId, `/audit?${query({ cursor: more.value.next })}`));
    more.value = { entries: [...more.value.entries, ...r.entries], next: r.next_cursor };
  };
  return (
    <>
      <PageTitle title="Audit log">Audit log</PageTitle>
      <form
        class="filters"
        aria-label="Filter the audit log"
        onSubmit={(e) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget as HTMLFormElement);
          filter.value = Object.fromEntries(['action', 'actor', 'from', 'to'].map((k) => [k, String(f.get(k) ?? '')]));
        }}
      >
        <label>
          Action
          <select name="action">
            {GROUPS.map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Person (e-mail)
          <input name="actor" type="email" autocomplete="off" />
        </label>
        <label>
          From
          <input name="from" type="date" />
        </label>
        <label>
          To
          <input name="to" type="date" />
        </label>
        <div class="actions">
          <button type="submit" class="primary">
            Filter
          </button>
        </div>
      </form>
      <form class="inline-form" method="get" action={`/dashboard/api${m(merchantId, '/exports/audit.csv')}`}>
        {Object.entries(filter.value)
          .filter(([, v]) => v !== '')
          .map(([k, v]) => (
            <input key={k} type="hidden" name={k} value={v} />
          ))}
        <button type="submit">Download these entries as CSV</button>
      </form>
      {page.error.value ? <Notice kind="error">{page.error.value}</Notice> : null}
      {page.data.value ? (
        more.value.entries.length === 0 ? (
          <p>No entries.</p>
        ) : (
          <DataTable caption="Audit log entries, newest first">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Details</th>
                <th scope="col">From</th>
              </tr>
            </thead>
            <tbody>
              {more.value.entries.map((e) => (
                <tr key={e.id} data-audit={e.action}>
                  <td>{when(e.at)}</td>
                  <td>{e.actor}</td>
                  <td class="mono">{e.action}</td>
                  <td>
                    {e.target ? <span class="mono">{e.target} </span> : null}
                    {DETAIL_ORDER(e.details)}
                  </td>
                  <td class="mono">{e.client_address ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        )
      ) : (
        <p class="loading">Loading…</p>
      )}
      {more.value.next ? (
        <button type="button" onClick={() => void loadMore()}>
          Show older entries
        </button>
      ) : null}
      <p class="hint">Entries are kept for AUDIT_RETENTION_DAYS (a year unless the operator set otherwise).</p>
    </>
  );
}
