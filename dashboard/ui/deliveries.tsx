import { useSignal } from '@preact/signals';
import { short, when } from '../format.js';
import { pagePath } from '../router.js';
import type { Delivery } from '../types.js';
import { DataTable } from './data-table.js';
import { Link } from './link.js';
import { Status } from './status.js';

/**
 * Webhook deliveries, each with the payment it is about (a link), the status and sequence it carries, the payload
 * as signed and sent, and every attempt: status code, duration, and what the receiver answered.
 */
export function DeliveryList(props: {
  merchantId: string;
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
            {d.test ? <span class="mark">test event</span> : null}{' '}
            {d.payment_id && !d.test ? (
              <span data-field="delivery-payment">
                payment{' '}
                <Link
                  class="mono"
                  href={`${pagePath(props.merchantId, 'payments')}/${d.payment_id}`}
                  title={d.payment_id}
                >
                  {short(d.payment_id, 8)}
                </Link>
              </span>
            ) : null}{' '}
            {d.payment_status ? (
              <span data-field="delivery-carries">
                carries <Status status={d.payment_status} />
                {d.sequence !== null ? ` · sequence ${d.sequence}` : ''}
              </span>
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
          <Payload text={d.payload} />
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
                    <td class="excerpt">
                      {/* The error says what went wrong ("HTTP 500"), the excerpt what the receiver said: both. */}
                      {a.error ? <span data-field="error">{a.error}</span> : null}
                      {a.response_excerpt ? <pre data-field="response-excerpt">{a.response_excerpt}</pre> : null}
                    </td>
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

/**
 * The payload exactly as signed and sent (so it compares with what the receiver logged), written into the page only
 * once opened: a log of 50 deliveries stays light, and its text is not on the page twice until asked for.
 */
function Payload({ text }: { text: string }) {
  const open = useSignal(false);
  return (
    <details class="payload" onToggle={(e) => (open.value = (e.currentTarget as HTMLDetailsElement).open)}>
      <summary>Payload as sent</summary>
      {open.value ? <pre data-field="payload">{text}</pre> : null}
    </details>
  );
}
