import { useSignal } from '@preact/signals';
import { ApiError, api, m } from '../api.js';
import { pagePath } from '../router.js';
import { me, membership } from '../session.js';
import type { AssetOption } from '../types.js';
import { AssetOptions, NoAssetsNotice } from '../ui/asset-options.js';
import { Link } from '../ui/link.js';
import { Notice } from '../ui/notice.js';
import { PageTitle } from '../ui/page.js';
import { useLoad } from '../ui/use-load.js';

type Checkout = typeof import('../../widget/index.js');

/**
 * The merchant's own drop-in, loaded from this service (/dropin/v1/checkout.module.js) when first used. The session
 * is created server-side for the signed-in merchant: keys are stored hashed, so there is no dk_ key to hand it.
 */
let checkout: Promise<Checkout> | null = null;
const loadCheckout = () => {
  checkout ??= import(/* @vite-ignore */ `${window.location.origin}/dropin/v1/checkout.module.js`) as Promise<Checkout>;
  return checkout;
};

/** Opens the merchant's checkout in test mode, as its customers see it, with the sandbox's "Simulate payment". */
export function TryPage({ merchantId }: { merchantId: string }) {
  const ref = membership(merchantId);
  const assets = useLoad(() => api<AssetOption[]>(m(merchantId, '/assets')), [merchantId]);
  const notice = useSignal<{ kind: 'ok' | 'error' | 'info'; text: string; paymentId?: string } | null>(null);
  const busy = useSignal(false);
  if (ref?.mode === 'live') {
    const test = me.value?.merchants.find((x) => x.mode === 'test');
    return (
      <>
        <PageTitle title="Try the checkout">Try the checkout</PageTitle>
        <p>This merchant is live: its checkout asks customers for real funds, so it cannot be tried from here.</p>
        {test ? (
          <p>
            Try it with your test merchant instead:{' '}
            <Link href={pagePath(test.merchant_id, 'try')}>{test.name} (test)</Link>.
          </p>
        ) : (
          <p>
            You have no test merchant. An operator can create one (admin CLI: <code>merchant create --mode test</code>)
            and give you a role in it (<code>user create</code>).
          </p>
        )}
      </>
    );
  }
  const open = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const currency = String(form.get('currency') ?? '');
    busy.value = true;
    notice.value = null;
    try {
      const { session_token } = await api<{ session_token: string }>(m(merchantId, '/checkout-sessions'), {
        body: { amount: Number(form.get('amount')), ...(currency ? { crypto_currency: currency } : {}) },
      });
      const mod = await loadCheckout();
      mod.createOpen(window.location.origin)(
        {
          onSuccess: (p) => {
            notice.value = { kind: 'ok', text: `Payment ${p.payment_id} finished.`, paymentId: p.payment_id };
          },
          onError: (x) => {
            notice.value = { kind: 'error', text: x.message };
          },
        } as Parameters<ReturnType<Checkout['createOpen']>>[0],
        session_token,
      );
    } catch (x) {
      notice.value = { kind: 'error', text: x instanceof ApiError ? x.message : 'Cannot load the checkout' };
    } finally {
      busy.value = false;
    }
  };
  return (
    <>
      <PageTitle title="Try the checkout">Try the checkout</PageTitle>
      <p>
        Opens your drop-in checkout in test mode, as your customers see it. Pay with "Simulate payment"; the payment
        shows in Payments and your webhook endpoint receives its events.
      </p>
      {notice.value ? (
        <Notice kind={notice.value.kind}>
          {notice.value.text}{' '}
          {notice.value.paymentId ? (
            <Link href={`${pagePath(merchantId, 'payments')}/${notice.value.paymentId}`}>See the payment</Link>
          ) : null}
        </Notice>
      ) : null}
      {ref?.role === 'owner' ? (
        <>
          <NoAssetsNotice assets={assets.data.value} />
          <form class="inline-form" onSubmit={open}>
            <label>
              Amount (USD)
              <input name="amount" type="number" min="0.01" step="0.01" defaultValue="25" required />
            </label>
            <label>
              Currency
              <select name="currency">
                <option value="">Let the customer choose</option>
                <AssetOptions assets={assets.data.value ?? []} />
              </select>
            </label>
            <button type="submit" class="primary" disabled={busy.value}>
              Open the checkout
            </button>
          </form>
        </>
      ) : (
        <p>Only an owner can try the checkout: it creates test payments.</p>
      )}
    </>
  );
}
