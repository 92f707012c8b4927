import { when } from '../format.js';
import type { Delivery } from '../types.js';
import { DataTable } from './data-table.js';
import { Status } from './status.js';

/** Webhook deliveries, each with every attempt: status code, duration, and what the receiver answered. */
export function DeliveryList(props: {
  deliveries: Delivery[];
  canRedeliver: boolean;
  onRedeliver: (id: string) => void;
}) {
  if (props.deliveries.length === 0) return <p>No webhook deliveries.</p>;
  return (
    <ul class="deliveries">
      {props.deliveries.map((d) => (
        <li key={d.delivery_id} data-delivery={d.delivery_id}>
          <div class="delivery-head">
            <span class="mono">{d.delivery_id}</span> <Status status={d.status} />{' '}
            {d.test ? (
              <span class="mark">test event</span>
            ) : d.sequence !== null ? (
              <span>sequence {d.sequence}</span>
            ) : null}{' '}
            <span class="muted">{when(d.created_at)}</span>
            {d.next_attempt_at ? <span class="muted"> · next attempt {when(d.next_attempt_at)}</span> : null}
            {props.canRedeliver ? (
              <button
                type="button"
                class="small"
                onClick={() => props.onRedeliver(d.delivery_id)}
                aria-label={`Redeliver ${d.delivery_id}`}
              >
                Redeliver
              </button>
            ) : null}
          </div>
          {d.attempts.length > 0 ? (
            <DataTable class="attempts" caption={`Attempts of ${d.delivery_id}`}>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Started</th>
                  <th scope="col">Status code</th>
                  <th scope="col" class="num">
                    Duration
                  </th>
                  <th scope="col">Response</th>
                </tr>
              </thead>
              <tbody>
                {d.attempts.map((a) => (
                  <tr key={a.attempt}>
                    <td>{a.attempt}</td>
                    <td>{when(a.started_at)}</td>
                    <td data-field="status-code">{a.response_code ?? '—'}</td>
                    <td class="num">{a.duration_ms} ms</td>
                    <td class="excerpt">{a.error ?? a.response_excerpt ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </DataTable>
          ) : (
            <p class="muted">No attempt yet.</p>
          )}
        </li>
      ))}
    </ul>
  );
}
