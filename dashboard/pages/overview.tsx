import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { Overview } from '../../dashboard-api/view-types.js';
import { api, m } from '../api.js';
import { money, statusLabel } from '../format.js';
import { onPayment } from '../live.js';
import { pagePath } from '../router.js';
import { Link } from '../ui/link.js';
import { Notice } from '../ui/notice.js';
import { PageTitle } from '../ui/page.js';
import { useLoad } from '../ui/use-load.js';

type Period = Overview['periods'][number];
type Day = Overview['daily'][number];

const PERIOD_LABELS = { today: 'Today', '7d': '7 days', '30d': '30 days' } as const;

/**
 * Daily sold USD as bars, in plain SVG (no chart library: the dashboard's JS and CSS stay small). The figures are
 * also in a table for screen readers; heights only scale the picture, every number shown is the exact text.
 */
function DailyChart({ days }: { days: Day[] }) {
  const W = 600;
  const H = 160;
  const cents = days.map((d) => Number(d.sold_usd.replace('.', '')));
  const max = Math.max(1, ...cents);
  const bar = W / days.length;
  const total = days.reduce((n, d) => n + d.received_payments, 0);
  return (
    <figure class="chart">
      <svg
        viewBox={`0 0 ${W} ${H + 20}`}
        role="img"
        aria-labelledby="chart-title"
        preserveAspectRatio="none"
        data-field="daily-chart"
      >
        <title id="chart-title">
          Sold per day (USD), last {days.length} days: {total} payments received
        </title>
        <line x1="0" y1={H} x2={W} y2={H} class="axis" />
        {days.map((d, i) => {
          // Not `h`: the JSX factory is `h`, and a local of that name would shadow it.
          const tall = Math.round(((cents[i] ?? 0) / max) * (H - 10));
          return (
            <rect key={d.day} x={i * bar + 2} y={H - tall} width={bar - 4} height={tall} class="bar" data-day={d.day}>
              <title>
                {d.day}: {money(d.sold_usd, 'USD')}, {d.received_payments} received
              </title>
            </rect>
          );
        })}
        <text x="0" y={H + 16} class="tick">
          {days[0]?.day}
        </text>
        <text x={W} y={H + 16} class="tick" text-anchor="end">
          {days.at(-1)?.day}
        </text>
      </svg>
      <figcaption>
        Sold per day (USD, finished payments), UTC days. Highest day: {money(maxText(days), 'USD')}.
      </figcaption>
      {/* The wrapper, not the table, is hidden: a table never shrinks below its content, so it would widen the page. */}
      <div class="sr-only">
        <table>
          <caption>Sold per day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Sold (USD)</th>
              <th scope="col">Payments received</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.day}>
                <td>{d.day}</td>
                <td>{d.sold_usd}</td>
                <td>{d.received_payments}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

function maxText(days: Day[]): string {
  let best = days[0]?.sold_usd ?? '0.00';
  for (const d of days) if (Number(d.sold_usd.replace('.', '')) > Number(best.replace('.', ''))) best = d.sold_usd;
  return best;
}

/**
 * The landing page: what came in today, in 7 and in 30 days (per asset, and sold in USD), payments by status, and
 * the daily volume; each status count links to the filtered payment list. Live payment changes re-read it.
 */
export function OverviewPage({ merchantId }: { merchantId: string }) {
  const data = useLoad(() => api<Overview>(m(merchantId, '/overview')), [merchantId]);
  const chosen = useSignal<Period['period']>('7d');
  useEffect(() => onPayment(() => data.reload()), [merchantId]);
  const o = data.data.value;
  const p = o?.periods.find((x) => x.period === chosen.value);
  return (
    <>
      <PageTitle title="Overview">Overview</PageTitle>
      <p class="actions">
        <Link class="button primary" href={pagePath(merchantId, 'sell')}>
          Create a payment link
        </Link>
      </p>
      {data.error.value ? <Notice kind="error">{data.error.value}</Notice> : null}
      {o && o.prices.state === 'stale' && o.prices.stale_assets.length > 0 ? (
        <Notice kind="error">
          <span data-field="stale-prices">
            Prices are stale
            {o.prices.stale_since ? ` since ${o.prices.stale_since.slice(0, 16).replace('T', ' ')} UTC` : ''}: new
            payments in {o.prices.stale_assets.join(', ')} are refused until the price source answers again
            {o.prices.last_error ? ` (last error: ${o.prices.last_error})` : ''}.
          </span>
        </Notice>
      ) : null}
      {o && p ? (
        <>
          <fieldset class="tabs periods">
            <legend class="sr-only">Period</legend>
            {o.periods.map((x) => (
              <label key={x.period} class={x.period === chosen.value ? 'on' : ''}>
                <input
                  type="radio"
                  name="period"
                  value={x.period}
                  checked={x.period === chosen.value}
                  onChange={() => (chosen.value = x.period)}
                />
                {PERIOD_LABELS[x.period]}
              </label>
            ))}
          </fieldset>
          <section aria-labelledby="received-h" data-period={p.period}>
            <h2 id="received-h">Received · {PERIOD_LABELS[p.period]}</h2>
            <dl class="figures">
              <div>
                <dt>Sold (USD)</dt>
                <dd data-field="sold-usd">{money(p.sold_usd, 'USD')}</dd>
              </div>
              {p.received.map((r) => (
                <div key={r.asset} data-asset={r.asset}>
                  <dt>{r.asset}</dt>
                  <dd>{money(r.amount, r.asset)}</dd>
                </div>
              ))}
              {p.refunded.map((r) => (
                <div key={`refunded-${r.asset}`} data-refunded-asset={r.asset}>
                  <dt>Refunded {r.asset}</dt>
                  <dd>{money(r.amount, r.asset)}</dd>
                </div>
              ))}
            </dl>
            {p.received.length === 0 ? <p>Nothing received in this period.</p> : null}
          </section>
          <section aria-labelledby="status-h">
            <h2 id="status-h">Payments by status · {PERIOD_LABELS[p.period]}</h2>
            <ul class="status-counts">
              {Object.entries(p.by_status).map(([s, n]) => (
                <li key={s} data-status-count={s}>
                  <Link href={`${pagePath(merchantId, 'payments')}?status=${s}&from=${p.from.slice(0, 10)}`}>
                    {statusLabel(s)}: <strong>{n}</strong>
                  </Link>
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="daily-h">
            <h2 id="daily-h">Daily volume</h2>
            <DailyChart days={o.daily} />
          </section>
        </>
      ) : data.error.value ? null : (
        <p class="loading">Loading…</p>
      )}
    </>
  );
}
