import { useSignal } from '@preact/signals';
import type { CreatedLink as Created } from '../../dashboard-api/view-types.js';
import { api, m } from '../api.js';
import { money } from '../format.js';
import { pagePath } from '../router.js';
import { membership } from '../session.js';
import type { AssetOption } from '../types.js';
import { AssetOptions, NoAssetsNotice } from '../ui/asset-options.js';
import { HostedUrl } from '../ui/hosted-url.js';
import { Link } from '../ui/link.js';
import { FieldError, Notice } from '../ui/notice.js';
import { PageTitle } from '../ui/page.js';
import { useLoad } from '../ui/use-load.js';
import { useSubmit } from '../ui/use-submit.js';

/**
 * Sell from the dashboard: a payment link (amount in USD, optional asset, order id, description, the customer's
 * e-mail) made through the service's own payment creation; shows its hosted URL to copy or open, with its QR code.
 * Owners only: a viewer reads, never sells.
 */
export function SellPage({ merchantId }: { merchantId: string }) {
  const owner = membership(merchantId)?.role === 'owner';
  const assets = useLoad(() => api<AssetOption[]>(m(merchantId, '/assets')), [merchantId]);
  const created = useSignal<Created | null>(null);
  const { errors, failure, busy, run, field } = useSubmit();
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const text = (k: string) => String(form.get(k) ?? '').trim();
    const body: Record<string, unknown> = { amount: Number(text('amount')), email: text('email') };
    for (const k of ['currency', 'order_id', 'order_description']) if (text(k)) body[k] = text(k);
    await run(async () => {
      created.value = await api<Created>(m(merchantId, '/payment-links'), { body });
    });
  };
  const c = created.value;
  return (
    <>
      <PageTitle title="Payment links">Payment links</PageTitle>
      {!owner ? (
        <p>Only an owner can create payment links: each one is a payment your customer can pay.</p>
      ) : (
        <>
          <p>Make a link to a hosted checkout and send it to your customer, or let them scan its QR code.</p>
          {failure.value ? <Notice kind="error">{failure.value}</Notice> : null}
          <NoAssetsNotice assets={assets.data.value} />
          <form class="stack sell" onSubmit={submit} aria-label="New payment link">
            <label>
              Amount (USD)
              <input {...field('amount')} type="number" min="0.01" step="0.01" required inputMode="decimal" />
              <FieldError id="amount-err" messages={errors.value.amount} />
            </label>
            <label>
              Currency
              <select {...field('currency')}>
                <option value="">Let the customer choose on the page</option>
                <AssetOptions assets={assets.data.value ?? []} />
              </select>
              <FieldError id="currency-err" messages={errors.value.currency} />
            </label>
            <label>
              Customer e-mail
              <input {...field('email')} type="email" required autoComplete="off" />
              <FieldError id="email-err" messages={errors.value.email} />
            </label>
            <label>
              Order id (optional)
              <input {...field('order_id')} maxLength={200} />
              <FieldError id="order_id-err" messages={errors.value.order_id} />
            </label>
            <label>
              Description (optional, the customer sees it)
              <textarea {...field('order_description')} maxLength={2000} rows={2} />
              <FieldError id="order_description-err" messages={errors.value.order_description} />
            </label>
            <div class="actions">
              <button type="submit" class="primary" disabled={busy.value}>
                Create payment link
              </button>
            </div>
          </form>
        </>
      )}
      {c ? (
        <section aria-labelledby="link-h" aria-live="polite">
          <h2 id="link-h">Payment link created</h2>
          <p>
            {money(c.payment.price_amount, c.payment.price_currency)}, payment{' '}
            <Link href={`${pagePath(merchantId, 'payments')}/${c.payment.payment_id}`} class="mono">
              {c.payment.payment_id}
            </Link>
          </p>
          <HostedUrl url={c.hosted_payment_url} qr={c.qr_code_url} />
        </section>
      ) : null}
    </>
  );
}
