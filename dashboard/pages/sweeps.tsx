import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { NetworkSweeps } from '../../dashboard-api/view-types.js';
import { ApiError, api, m } from '../api.js';
import { money, when } from '../format.js';
import { pagePath } from '../router.js';
import { membership } from '../session.js';
import { DataTable } from '../ui/data-table.js';
import { Link } from '../ui/link.js';
import { Notice } from '../ui/notice.js';
import { PageTitle } from '../ui/page.js';
import { useLoad } from '../ui/use-load.js';
import { WalletChoice } from '../ui/wallet-choice.js';
import { type BrowserWallet, type SweepTransaction, sendSweep, walletFailure, watchWallets } from '../wallet.js';

interface Sent {
  hash: string;
  url: string | null;
  count: number;
}

/** How often the page asks again while a sent sweep waits for the sweeper to see it on chain. */
const POLL_MS = 3000;

function SweeperState({ n }: { n: NetworkSweeps }) {
  if (n.factory_problem) return <Notice kind="error">Forwarder payments are paused: {n.factory_problem}</Notice>;
  return (
    <p>
      {n.relayer ? (
        <>
          Relayer <span class="mono wrap">{n.relayer}</span> sweeps by itself
          {n.waiting ? `; waiting: ${n.waiting}` : '.'}
        </>
      ) : (
        'No relayer on this network: sweep from your own wallet.'
      )}
    </p>
  );
}

/** One network: its unswept forwarders and, for owners, one wallet transaction that sweeps them all. */
function NetworkSection({
  merchantId,
  n,
  owner,
  wallets,
  onSent,
  sent,
}: {
  merchantId: string;
  n: NetworkSweeps;
  owner: boolean;
  wallets: BrowserWallet[];
  onSent: (s: Sent) => void;
  sent: Sent | undefined;
}) {
  const error = useSignal('');
  const busy = useSignal(false);
  const chosen = useSignal('');
  const wallet = wallets.find((w) => w.id === chosen.value) ?? wallets[0];
  const payoutText = n.payouts.length === 1 ? n.payouts[0] : `${n.payouts.length} payout addresses`;
  const sweep = async () => {
    if (!wallet) return;
    error.value = '';
    busy.value = true;
    try {
      const tx = await api<SweepTransaction>(m(merchantId, '/forwarders/sweep-transaction'), {
        body: { network: n.network },
      });
      const hash = await sendSweep(wallet.provider, tx);
      onSent({ hash, url: n.explorer_url ? `${n.explorer_url}/tx/${hash}` : null, count: tx.forwarders.length });
    } catch (e) {
      error.value =
        e instanceof ApiError
          ? e.message
          : walletFailure(e, { what: 'sweep', lacking: 'enough of the native coin for the network fee' });
    } finally {
      busy.value = false;
    }
  };
  const headingId = `sweeps-${n.network}`;
  return (
    <section aria-labelledby={headingId} data-network={n.network}>
      <h2 id={headingId}>
        {n.network} (chain {n.chain_id})
      </h2>
      <SweeperState n={n} />
      {sent ? (
        <Notice kind="ok">
          Sweep of {sent.count} forwarder{sent.count === 1 ? '' : 's'} sent in{' '}
          {sent.url ? (
            <a class="mono wrap" href={sent.url} target="_blank" rel="noopener noreferrer">
              {sent.hash}
            </a>
          ) : (
            <span class="mono wrap">{sent.hash}</span>
          )}
          {n.forwarders.length ? '; the list empties once it is mined and seen.' : '; swept.'}
        </Notice>
      ) : null}
      {error.value ? <Notice kind="error">{error.value}</Notice> : null}
      {n.forwarders.length === 0 ? (
        <p>Nothing to sweep on {n.network}.</p>
      ) : (
        <>
          <DataTable caption={`Unswept forwarders on ${n.network}`}>
            <thead>
              <tr>
                <th scope="col">Payment</th>
                <th scope="col">Forwarder</th>
                <th scope="col">Payout</th>
                <th scope="col" class="num">
                  Unswept
                </th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {n.forwarders.map((f) => (
                <tr key={f.payment_id} data-forwarder={f.address}>
                  <td class="mono">
                    <Link href={pagePath(merchantId, `payments/${f.payment_id}`)}>{f.payment_id}</Link>
                  </td>
                  <td class="mono wrap">{f.address}</td>
                  <td class="mono wrap">{f.payout}</td>
                  <td class="num">
                    {f.amounts.map((a) => (
                      <div key={a.currency}>{money(a.amount, a.currency)}</div>
                    ))}
                  </td>
                  <td>
                    {f.relayer_sweep_pending
                      ? 'Relayer sweep pending'
                      : f.sweep_error
                        ? `Failed: ${f.sweep_error}; next try ${when(f.next_sweep_at)}`
                        : 'Not swept yet'}
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
          {owner && !n.factory_problem ? (
            wallets.length === 0 ? (
              <p class="hint">
                No browser wallet found: install one to sweep from here, or run{' '}
                <code>
                  admin evm sweep --merchant {merchantId} --network {n.network} --calldata
                </code>
                .
              </p>
            ) : (
              <div class="actions">
                <WalletChoice wallets={wallets} wallet={wallet} chosen={chosen} />
                <button type="button" class="primary" disabled={busy.value} onClick={sweep}>
                  Sweep to {payoutText}
                </button>
              </div>
            )
          ) : null}
          {owner && n.forwarders.length > n.wallet_sweep_max ? (
            <p class="hint">One transaction sweeps the oldest {n.wallet_sweep_max}; sweep again for the rest.</p>
          ) : null}
        </>
      )}
    </section>
  );
}

/**
 * Forwarders holding funds not yet swept to the payout address, per network, with the sweeper's state. An owner
 * sweeps a network's forwarders in one transaction from a browser wallet; the service builds it, and the list
 * empties once the sweeper sees the flush on chain (the page asks again meanwhile).
 */
export function SweepsPage({ merchantId }: { merchantId: string }) {
  const owner = membership(merchantId)?.role === 'owner';
  const list = useLoad(() => api<NetworkSweeps[]>(m(merchantId, '/forwarders')), [merchantId]);
  const wallets = useSignal<BrowserWallet[]>([]);
  const sent = useSignal<Record<string, Sent>>({});
  useEffect(() => watchWallets((w) => (wallets.value = w)), []);
  const rows = list.data.value;
  const waitingFor = rows?.some((n) => sent.value[n.network] && n.forwarders.length > 0) ?? false;
  useEffect(() => {
    if (!waitingFor) return;
    const timer = setInterval(list.reload, POLL_MS);
    return () => clearInterval(timer);
  }, [waitingFor]);
  return (
    <>
      <PageTitle title="Sweeps">Sweeps</PageTitle>
      <p>
        A live merchant with a payout address is paid to a forwarder per payment: a contract address that can only send
        to that payout. Funds wait there until swept, by the service’s relayer or from your wallet.
      </p>
      {list.error.value ? <Notice kind="error">{list.error.value}</Notice> : null}
      {rows === null ? (
        list.error.value ? null : (
          <p class="loading">Loading…</p>
        )
      ) : rows.length === 0 ? (
        <p>No network has a forwarder factory (forwarderFactory in CHAINS_CONFIG).</p>
      ) : (
        rows.map((n) => (
          <NetworkSection
            key={n.network}
            merchantId={merchantId}
            n={n}
            owner={owner}
            wallets={wallets.value}
            sent={sent.value[n.network]}
            onSent={(s) => {
              sent.value = { ...sent.value, [n.network]: s };
              list.reload();
            }}
          />
        ))
      )}
    </>
  );
}
