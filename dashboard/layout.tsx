import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { followMerchant, stopFollowing } from './live.js';
import { location, navigate, pagePath } from './router.js';
import { me, membership, signOut } from './session.js';
import { Link } from './ui/link.js';

const NAV = [
  ['overview', 'Overview'],
  ['pos', 'Point of sale'],
  ['sell', 'Payment links'],
  ['links', 'Reusable links'],
  ['payments', 'Payments'],
  ['balances', 'Balances'],
  ['sweeps', 'Sweeps'],
  ['webhooks', 'Webhooks'],
  ['keys', 'API keys'],
  ['settings', 'Settings'],
  ['try', 'Try the checkout'],
  ['users', 'Users'],
  ['audit', 'Audit log'],
  ['mail', 'E-mail'],
  ['notifications', 'Notifications'],
] as const;

/** What a role sees in the navigation: a cashier only the point of sale; the mail log (invitation links) owners. */
function navFor(role: string | undefined) {
  if (role === 'cashier') return NAV.filter(([p]) => p === 'pos');
  return role === 'owner' ? NAV : NAV.filter(([p]) => p !== 'mail');
}

/** Switching merchants keeps the page (Payments stays Payments) and starts at its first view. */
function switchTo(merchantId: string): void {
  const page = /^\/dashboard\/m\/[\w-]+\/([a-z]+)/.exec(location.value.path)?.[1] ?? 'payments';
  navigate(pagePath(merchantId, page === 'payments' || NAV.some(([p]) => p === page) ? page : 'payments'));
}

/**
 * The frame of every signed-in page: the merchant switcher (a shop's test and live merchants: it is also the
 * test/live switch), the navigation, sign-out, and the one live event stream of the merchant on screen.
 */
export function Layout({ merchantId, children }: { merchantId: string | null; children: ComponentChildren }) {
  const who = me.value;
  const current = merchantId ? membership(merchantId) : undefined;
  // No stream while the merchant requires two-factor the user has yet to set up: the service would refuse it (403).
  const blocked = current?.two_factor_required === true && who?.two_factor_enabled !== true;
  useEffect(() => {
    if (merchantId && !blocked) followMerchant(merchantId);
    return () => stopFollowing();
  }, [merchantId, blocked]);
  const page = /^\/dashboard\/m\/[\w-]+\/([a-z]+)/.exec(location.value.path)?.[1];
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Payments dashboard</span>
        {who && who.merchants.length > 0 ? (
          <label class="switcher">
            <span>Merchant</span>
            <select value={merchantId ?? ''} onChange={(e) => switchTo((e.currentTarget as HTMLSelectElement).value)}>
              {merchantId ? null : <option value="">Choose…</option>}
              {who.merchants.map((x) => (
                <option key={x.merchant_id} value={x.merchant_id}>
                  {x.name} ({x.mode === 'live' ? 'live' : 'test'})
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {current ? (
          <span class={`mode ${current.mode}`} data-mode={current.mode}>
            {current.mode === 'live' ? 'Live' : 'Test mode'} · {current.role}
          </span>
        ) : null}
        <span class="who">{who?.email}</span>
        <button type="button" onClick={() => signOut().then(() => navigate('/dashboard/'))}>
          Sign out
        </button>
      </header>
      {merchantId ? (
        <nav aria-label="Dashboard">
          <ul>
            {navFor(current?.role).map(([p, label]) => (
              <li key={p}>
                <Link href={pagePath(merchantId, p)} aria-current={page === p ? 'page' : undefined}>
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <main id="main">{children}</main>
    </div>
  );
}
