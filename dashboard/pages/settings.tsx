import { api, m } from '../api.js';
import { membership } from '../session.js';
import { Notice } from '../ui/notice.js';
import { PageTitle } from '../ui/page.js';
import { useLoad } from '../ui/use-load.js';
import { KeysSection } from './settings/key-section.js';
import { MoneroSection } from './settings/monero-section.js';
import { NetworksSection } from './settings/networks-section.js';
import { NewStoreSection } from './settings/new-store-section.js';
import { PayoutSection } from './settings/payout-section.js';
import { ShopSection } from './settings/shop-section.js';
import type { Settings } from './settings/types.js';
import { UnderpaidToleranceSection } from './underpaid-tolerance.js';

/**
 * Shop name, the drop-in's allowed origins, the xpub and payout address (live merchants), and the live networks'
 * health.
 */
export function SettingsPage({ merchantId }: { merchantId: string }) {
  const owner = membership(merchantId)?.role === 'owner';
  const settings = useLoad(() => api<Settings>(m(merchantId, '/settings')), [merchantId]);
  const s = settings.data.value;
  return (
    <>
      <PageTitle title="Settings">Settings</PageTitle>
      {settings.error.value ? <Notice kind="error">{settings.error.value}</Notice> : null}
      {s ? (
        <>
          <ShopSection merchantId={merchantId} s={s} owner={owner} onSaved={settings.reload} />
          <section aria-labelledby="xpub-h">
            <h2 id="xpub-h">Receiving addresses</h2>
            <KeysSection merchantId={merchantId} s={s} owner={owner} onSaved={settings.reload} />
          </section>
          <section aria-labelledby="xmr-h">
            <h2 id="xmr-h">Monero (view key)</h2>
            <MoneroSection merchantId={merchantId} s={s} owner={owner} onSaved={settings.reload} />
          </section>
          <section aria-labelledby="payout-h">
            <h2 id="payout-h">Payout address</h2>
            <PayoutSection merchantId={merchantId} s={s} owner={owner} onSaved={settings.reload} />
          </section>
        </>
      ) : null}
      <UnderpaidToleranceSection merchantId={merchantId} owner={owner} />
      {owner ? <NewStoreSection /> : null}
      <NetworksSection merchantId={merchantId} />
    </>
  );
}
