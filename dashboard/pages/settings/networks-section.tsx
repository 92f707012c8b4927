import { api, m } from '../../api.js';
import { DataTable } from '../../ui/data-table.js';
import { useLoad } from '../../ui/use-load.js';
import type { Network } from './types.js';

/** The live networks this service watches and their health. */
export function NetworksSection({ merchantId }: { merchantId: string }) {
  const networks = useLoad(() => api<Network[]>(m(merchantId, '/networks')), [merchantId]);
  return (
    <section aria-labelledby="networks-h">
      <h2 id="networks-h">Live networks</h2>
      {networks.data.value?.length === 0 ? <p>No live network is configured (CHAINS_CONFIG).</p> : null}
      {networks.data.value?.length ? (
        <DataTable caption="Live networks and their health">
          <thead>
            <tr>
              <th scope="col">Network</th>
              <th scope="col">Health</th>
              <th scope="col" class="num">
                Height
              </th>
              <th scope="col" class="num">
                Confirmations
              </th>
            </tr>
          </thead>
          <tbody>
            {networks.data.value.map((n) => (
              <tr key={n.network}>
                <th scope="row">{n.network}</th>
                <td>
                  <span class={n.healthy ? 'status s-finished' : 'status s-failed'}>
                    {n.healthy ? 'healthy' : 'unreachable'}
                  </span>
                </td>
                <td class="num">{n.height ?? '—'}</td>
                <td class="num">{n.confirmations}</td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      ) : null}
    </section>
  );
}
