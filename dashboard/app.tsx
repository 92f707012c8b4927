import { useEffect } from 'preact/hooks';
import { sessionLost } from './api.js';
import { Layout } from './layout.js';
import { AuditPage } from './pages/audit.js';
import { BalancesPage } from './pages/balances.js';
import { KeysPage } from './pages/keys.js';
import { LinkPage, LinksPage } from './pages/links.js';
import { MailPage } from './pages/mail.js';
import { NotificationsPage } from './pages/notifications.js';
import { OverviewPage } from './pages/overview.js';
import { PaymentPage } from './pages/payment.js';
import { PaymentsPage } from './pages/payments.js';
import { PosPage } from './pages/pos.js';
import { SellPage } from './pages/sell.js';
import { SetPasswordPage } from './pages/set-password.js';
import { SettingsPage } from './pages/settings.js';
import { SignInPage } from './pages/sign-in.js';
import { SweepsPage } from './pages/sweeps.js';
import { TryPage } from './pages/try.js';
import { TwoFactorRequiredPage } from './pages/two-factor.js';
import { UsersPage } from './pages/users.js';
import { WebhooksPage } from './pages/webhooks.js';
import { location, navigate, pagePath, type Route, routeOf } from './router.js';
import { loadMe, me, membership } from './session.js';
import { PageTitle } from './ui/page.js';

loadMe();

/** The page of a merchant route, for a member of that merchant. */
function merchantPage(route: Exclude<Route, { name: 'home' | 'set-password' | 'not-found' | 'pos-home' }>) {
  switch (route.name) {
    case 'overview':
      return <OverviewPage merchantId={route.merchantId} />;
    case 'sell':
      return <SellPage merchantId={route.merchantId} />;
    case 'payments':
      return <PaymentsPage merchantId={route.merchantId} />;
    case 'payment':
      return <PaymentPage merchantId={route.merchantId} paymentId={route.paymentId} />;
    case 'balances':
      return <BalancesPage merchantId={route.merchantId} />;
    case 'sweeps':
      return <SweepsPage merchantId={route.merchantId} />;
    case 'webhooks':
      return <WebhooksPage merchantId={route.merchantId} />;
    case 'keys':
      return <KeysPage merchantId={route.merchantId} />;
    case 'settings':
      return <SettingsPage merchantId={route.merchantId} />;
    case 'try':
      return <TryPage merchantId={route.merchantId} />;
    case 'users':
      return <UsersPage merchantId={route.merchantId} />;
    case 'audit':
      return <AuditPage merchantId={route.merchantId} />;
    case 'mail':
      return <MailPage merchantId={route.merchantId} />;
    case 'links':
      return <LinksPage merchantId={route.merchantId} />;
    case 'link':
      return <LinkPage merchantId={route.merchantId} linkId={route.linkId} />;
    case 'pos':
      return <PosPage merchantId={route.merchantId} />;
    case 'notifications':
      return <NotificationsPage merchantId={route.merchantId} />;
  }
}

function NotFound() {
  return (
    <>
      <PageTitle title="Not found">Not found</PageTitle>
      <p>There is no such page here, or it belongs to a merchant you are not a member of.</p>
    </>
  );
}

/**
 * The dashboard: signed out, every URL shows the sign-in form and, once signed in, the page it names; signed in,
 * `/dashboard/` goes to the first merchant's overview.
 */
export function App() {
  const route = routeOf(location.value.path);
  const who = me.value;
  const first = who?.merchants[0];
  useEffect(() => {
    // A cashier's place is the point of sale; the installed app opens there for everyone.
    const start = route.name === 'pos-home' || first?.role === 'cashier' ? 'pos' : 'overview';
    if ((route.name === 'home' || route.name === 'pos-home') && first)
      navigate(pagePath(first.merchant_id, start), true);
  }, [route.name, first?.merchant_id]);

  if (route.name === 'set-password') return <SetPasswordPage />;
  if (who === undefined) return <p class="loading">Loading…</p>;
  if (who === null || sessionLost.value !== null) return <SignInPage reason={sessionLost.value} />;
  if (route.name === 'home' || route.name === 'pos-home')
    return first ? null : (
      <Layout merchantId={null}>
        <PageTitle title="No merchants">No merchants yet</PageTitle>
        <p>Your account has no role in any merchant. Ask an owner to add you (admin CLI: user create).</p>
      </Layout>
    );
  if (route.name === 'not-found' || !membership(route.merchantId))
    return (
      <Layout merchantId={null}>
        <NotFound />
      </Layout>
    );
  // The service refuses this merchant's routes (403) until the user has two-factor; the page says why and sets it up.
  if (membership(route.merchantId)?.two_factor_required && !who.two_factor_enabled)
    return (
      <Layout merchantId={route.merchantId}>
        <TwoFactorRequiredPage merchantId={route.merchantId} />
      </Layout>
    );
  return <Layout merchantId={route.merchantId}>{merchantPage(route)}</Layout>;
}
