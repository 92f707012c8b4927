import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { LinkDetail, ReusableLink } from '../../dashboard-api/view-types.js';
import { ApiError, api, m } from '../api.js';
import { money, when } from '../format.js';
import { onPayment } from '../live.js';
import { pagePath } from '../router.js';
import { membership } from '../session.js';
import { DataTable } from '../ui/data-table.js';
import { HostedUrl } from '../ui/hosted-url.js';
import { Link } from '../ui/link.js';
import { FieldError, Notice } from '../ui/notice.js';
import { PageTitle } from '../ui/page.js';
import { Status } from '../ui/status.js';
import { useLoad } from '../ui/use-load.js';
import { useSubmit } from '../ui/use-submit.js';

const statusWords: Record<ReusableLink['status'], string> = {
  active: 'active',
  inactive: 'deactivated',
  ended: 'ended',
  limit_reached: 'limit reached',
};

/** What a link asks: its fixed price, or the bounds of the amount the customer enters. */
function priceOf(l: ReusableLink): string {
  if (l.amount !== null) return money(String(l.amount), l.price_currency);
  const lo = l.min_amount === null ? null : money(String(l.min_amount), l.price_currency);
  const hi = l.max_amount === null ? null : money(String(l.max_amount), l.price_currency);
  return `Customer enters${lo ? `, from ${lo}` : ''}${hi ? `, up to ${hi}` : ''}`;
}

/**
 * Reusable payment links: one public URL (and its QR code, for print) for a social page, a poster or a newsletter;
 * every customer who opens it gets a payment of their own. Owners create and deactivate them; everyone reads them.
 */
export function LinksPage({ merchantId }: { merchantId: string }) {
  const owner = membership(merchantId)?.role === 'owner';
  const links = useLoad(() => api<{ links: ReusableLink[] }>(m(merchantId, '/links')), [merchantId]);
  const assets = useLoad(() => api<{ code: string; name: string }[]>(m(merchantId, '/assets')), [merchantId]);
  const { errors, failure, busy, run, field } = useSubmit();
  const customer = useSignal(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const formEl = e.currentTarget as HTMLFormElement;
    const form = new FormData(formEl);
    const text = (k: string) => String(form.get(k) ?? '').trim();
    const body: Record<string, unknown> = { name: text('name') };
    const num = (k: string, as = k) => {
      if (text(k)) body[as] = Number(text(k));
    };
    if (customer.value) {
      num('min_amount');
      num('max_amount');
    } else num('amount');
    num('max_payments');
    const picked = form.getAll('currencies').map(String);
    if (picked.length > 0) body.currencies = picked;
    if (text('ends_at')) body.ends_at = new Date(text('ends_at')).toISOString();
    await run(async () => {
      await api(m(merchantId, '/links'), { body });
      formEl.reset();
      links.reload();
    });
  };
  return (
    <>
      <PageTitle title="Reusable links">Reusable links</PageTitle>
      <p>One link for everyone: each customer who opens it types their e-mail and pays a payment of their own.</p>
      {links.error.value ? <Notice kind="error">{links.error.value}</Notice> : null}
      <DataTable caption="Reusable links">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Price</th>
            <th scope="col">Status</th>
            <th scope="col">Limit</th>
          </tr>
        </thead>
        <tbody>
          {(links.data.value?.links ?? []).map((l) => (
            <tr key={l.id}>
              <td>
                <Link href={`${pagePath(merchantId, 'links')}/${l.id}`}>{l.name}</Link>
              </td>
              <td>{priceOf(l)}</td>
              <td>{statusWords[l.status]}</td>
              <td>
                {l.max_payments === null ? 'none' : `${l.max_payments} payments`}
                {l.ends_at ? `, until ${when(l.ends_at)}` : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </DataTable>
      {owner ? (
        <section aria-labelledby="new-link-h">
          <h2 id="new-link-h">New reusable link</h2>
          {failure.value ? <Notice kind="error">{failure.value}</Notice> : null}
          <form class="stack sell" onSubmit={submit} aria-label="New reusable link">
            <label>
              Name (customers see it)
              <input {...field('name')} required maxLength={200} />
              <FieldError id="name-err" messages={errors.value.name} />
            </label>
            <fieldset>
              <legend>Price</legend>
              <label class="inline">
                <input
                  type="radio"
                  name="amount_type"
                  checked={!customer.value}
                  onChange={() => (customer.value = false)}
                />{' '}
                Fixed price
              </label>
              <label class="inline">
                <input
                  type="radio"
                  name="amount_type"
                  checked={customer.value}
                  onChange={() => (customer.value = true)}
                />{' '}
                The customer enters the amount
              </label>
            </fieldset>
            {customer.value ? (
              <>
                <label>
                  Minimum (USD, optional)
                  <input {...field('min_amount')} inputMode="decimal" />
                  <FieldError id="min_amount-err" messages={errors.value.min_amount} />
                </label>
                <label>
                  Maximum (USD, optional)
                  <input {...field('max_amount')} inputMode="decimal" />
                  <FieldError id="max_amount-err" messages={errors.value.max_amount} />
                </label>
              </>
            ) : (
              <label>
                Price (USD)
                <input {...field('amount')} required inputMode="decimal" />
                <FieldError id="amount-err" messages={errors.value.amount} />
              </label>
            )}
            <fieldset>
              <legend>Assets offered (none ticked: all)</legend>
              {(assets.data.value ?? []).map((a) => (
                <label class="inline" key={a.code}>
                  <input type="checkbox" name="currencies" value={a.code} /> {a.code}
                </label>
              ))}
              <FieldError id="currencies-err" messages={errors.value.currencies} />
            </fieldset>
            <label>
              Most payments (optional)
              <input {...field('max_payments')} inputMode="numeric" />
              <FieldError id="max_payments-err" messages={errors.value.max_payments} />
            </label>
            <label>
              Ends (optional)
              <input {...field('ends_at')} type="datetime-local" />
              <FieldError id="ends_at-err" messages={errors.value.ends_at} />
            </label>
            <div class="actions">
              <button type="submit" class="primary" disabled={busy.value}>
                Create link
              </button>
            </div>
          </form>
        </section>
      ) : null}
    </>
  );
}

/** One link: its URL and QR code for print, its totals, its payments (live), and deactivation for owners. */
export function LinkPage({ merchantId, linkId }: { merchantId: string; linkId: string }) {
  const owner = membership(merchantId)?.role === 'owner';
  const detail = useLoad(() => api<LinkDetail>(m(merchantId, `/links/${encodeURIComponent(linkId)}`)), [linkId]);
  const failure = useSignal('');
  // A payment of this link changed (or a new one was made): read the link again for its list and totals.
  useEffect(() => onPayment(() => detail.reload()), [linkId]);
  const d = detail.data.value;
  const toggle = async () => {
    if (!d) return;
    failure.value = '';
    try {
      detail.data.value = await api<LinkDetail>(m(merchantId, `/links/${encodeURIComponent(linkId)}`), {
        method: 'PATCH',
        body: { active: !d.link.active },
      });
    } catch (x) {
      failure.value = x instanceof ApiError ? x.message : String(x);
    }
  };
  return (
    <>
      <PageTitle title={d?.link.name ?? 'Reusable link'}>{d?.link.name ?? 'Reusable link'}</PageTitle>
      {detail.error.value ? <Notice kind="error">{detail.error.value}</Notice> : null}
      {failure.value ? <Notice kind="error">{failure.value}</Notice> : null}
      {d ? (
        <>
          <p>
            {priceOf(d.link)} · <span data-field="link-status">{statusWords[d.link.status]}</span>
          </p>
          <HostedUrl url={d.link.url} qr={d.link.qr_code_url} />
          {owner ? (
            <div class="actions">
              <button type="button" onClick={toggle}>
                {d.link.active ? 'Deactivate link' : 'Activate link'}
              </button>
            </div>
          ) : null}
          <h2>Totals</h2>
          <ul data-field="link-totals">
            {d.link.totals.length === 0 ? <li>No payments yet</li> : null}
            {d.link.totals.map((t) => (
              <li key={t.price_currency}>
                {t.payments} payments, {t.paid_payments} paid: {money(String(t.paid_amount), t.price_currency)}
              </li>
            ))}
          </ul>
          <DataTable caption="Payments of this link">
            <thead>
              <tr>
                <th scope="col">Payment</th>
                <th scope="col">Customer</th>
                <th scope="col">Price</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {d.payments.map((p) => (
                <tr key={p.payment_id}>
                  <td>
                    <Link href={`${pagePath(merchantId, 'payments')}/${p.payment_id}`} class="mono">
                      {p.payment_id}
                    </Link>
                  </td>
                  <td>{p.customer_email}</td>
                  <td>{money(p.price_amount, p.price_currency)}</td>
                  <td>
                    <Status status={p.payment_status} detail={p.status_detail} />
                  </td>
                  <td>{when(p.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        </>
      ) : null}
    </>
  );
}
