import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { Sale, Sales } from '../../dashboard-api/view-types.js';
import { ApiError, api, m } from '../api.js';
import { money, when } from '../format.js';
import { connected, onPayment, onReconnect } from '../live.js';
import type { PaymentRow } from '../types.js';
import { Notice } from '../ui/notice.js';
import { PageTitle } from '../ui/page.js';

const TIPS = [0, 10, 15, 20] as const;
const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '00', '0', '⌫'] as const;

/** The minor digits of a currency (JPY 0, USD 2, KWD 3), as the browser's Intl knows them. */
const minorDigits = (currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;

/** Minor units as decimal text: 1250n -> "12.50" with 2 digits, "1250" with 0. */
const unitsText = (u: bigint, digits: number) => {
  if (digits === 0) return u.toString();
  const scale = 10n ** BigInt(digits);
  return `${u / scale}.${(u % scale).toString().padStart(digits, '0')}`;
};

/** a - b of two exact decimal texts, as decimal text: what is still due. */
function minus(a: string, b: string): string {
  const scale = Math.max(a.split('.')[1]?.length ?? 0, b.split('.')[1]?.length ?? 0);
  const units = (t: string) => {
    const [i = '0', f = ''] = t.split('.');
    return BigInt(i + f.padEnd(scale, '0'));
  };
  const d = units(a) - units(b);
  const s = (d < 0n ? 0n : d).toString().padStart(scale + 1, '0');
  const text = scale ? `${s.slice(0, -scale)}.${s.slice(-scale)}` : s;
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** The start of the seller's own day, which "today's sales" counts from. */
const midnight = () => {
  const d = new Date();
  d.setHours(0, 0, 0, 0);
  return d.toISOString();
};

/**
 * The point of sale, for a phone or tablet at the counter: a keypad for the amount (typed in the currency's smallest unit, as on a till),
 * tip presets, then the payment's QR code full screen with the exact amount and its live status, a clear "Paid" (or
 * "Paid too little: X still due"), and back to the keypad. A network drop shows "Reconnecting"; once the stream is
 * back the payment is read again, so the screen shows its true status, not the last event it happened to get.
 */
export function PosPage({ merchantId }: { merchantId: string }) {
  const cents = useSignal(0n);
  const tip = useSignal(0);
  const currency = useSignal('');
  /** The customer's address for a receipt, if they give one; without it no customer mail is sent. */
  const email = useSignal('');
  const assets = useSignal<{ code: string; name: string }[]>([]);
  const sale = useSignal<Sale | null>(null);
  const failure = useSignal('');
  const busy = useSignal(false);
  const sales = useSignal<Sales | null>(null);

  const loadSales = () =>
    api<Sales>(m(merchantId, `/pos/sales?from=${encodeURIComponent(midnight())}`)).then(
      (s) => (sales.value = s),
      () => {},
    );
  useEffect(() => {
    api<{ code: string; name: string }[]>(m(merchantId, '/assets')).then(
      (a) => {
        assets.value = a;
        currency.value ||= a[0]?.code ?? '';
      },
      (e) => (failure.value = e instanceof ApiError ? e.message : String(e)),
    );
    void loadSales();
  }, [merchantId]);

  const refresh = async () => {
    const current = sale.value;
    if (!current) return;
    try {
      const r = await api<{ payment: PaymentRow }>(
        m(merchantId, `/pos/payments/${encodeURIComponent(current.payment.payment_id)}`),
      );
      if (sale.value?.payment.payment_id === r.payment.payment_id) sale.value = { ...current, payment: r.payment };
    } catch {
      // Still offline: the next reconnection reads it again.
    }
  };
  useEffect(() => {
    const stopEvents = onPayment((e) => {
      const current = sale.value;
      if (
        current &&
        e.payment.payment_id === current.payment.payment_id &&
        e.payment.sequence >= current.payment.sequence
      )
        sale.value = { ...current, payment: e.payment };
    });
    const stopReconnect = onReconnect(() => void refresh());
    return () => {
      stopEvents();
      stopReconnect();
    };
  }, [merchantId]);

  // The counter sells in the merchant's currency (today's sales name it); the keypad types its minor units.
  const priceCurrency = sales.value?.price_currency ?? 'USD';
  const digits = minorDigits(priceCurrency);
  const tipCents = (cents.value * BigInt(tip.value) + 50n) / 100n;
  const total = cents.value + tipCents;
  const press = (k: (typeof KEYS)[number]) => {
    if (k === '⌫') cents.value /= 10n;
    else if (cents.value < 10_000_000n)
      cents.value = cents.value * (k === '00' ? 100n : 10n) + BigInt(k === '00' ? 0 : k);
  };
  const charge = async () => {
    busy.value = true;
    failure.value = '';
    try {
      sale.value = await api<Sale>(m(merchantId, '/pos/payments'), {
        body: {
          amount: Number(unitsText(cents.value, digits)),
          ...(tipCents > 0n ? { tip: Number(unitsText(tipCents, digits)) } : {}),
          currency: currency.value,
          ...(email.value.trim() ? { customer_email: email.value.trim() } : {}),
        },
      });
    } catch (x) {
      failure.value = x instanceof ApiError ? (Object.values(x.fields)[0]?.[0] ?? x.message) : String(x);
    } finally {
      busy.value = false;
    }
  };
  const next = () => {
    sale.value = null;
    cents.value = 0n;
    tip.value = 0;
    email.value = '';
    void loadSales();
  };

  const s = sale.value;
  if (s) {
    const p = s.payment;
    const due = minus(p.pay_amount, p.actually_paid);
    const done = p.payment_status === 'finished' || p.payment_status === 'expired' || p.payment_status === 'failed';
    return (
      <section class={`pos-screen s-${p.payment_status}`} aria-labelledby="pos-h" data-payment={p.payment_id}>
        {!connected.value ? (
          <p class="notice info" role="status">
            Connection lost: reconnecting…
          </p>
        ) : null}
        {p.payment_status === 'finished' ? (
          <h1 id="pos-h" tabIndex={-1} class="pos-big">
            Paid
          </h1>
        ) : p.payment_status === 'partially_paid' ? (
          <h1 id="pos-h" tabIndex={-1} class="pos-big">
            Paid too little: {due} {p.pay_currency} still due
          </h1>
        ) : p.payment_status === 'expired' || p.payment_status === 'failed' ? (
          <h1 id="pos-h" tabIndex={-1} class="pos-big">
            Not paid: the payment {p.payment_status}
          </h1>
        ) : (
          <h1 id="pos-h" tabIndex={-1}>
            Scan to pay {money(p.price_amount, p.price_currency)}
          </h1>
        )}
        {done ? null : (
          <img class="pos-qr" src={s.qr_code_url} alt={`QR code to pay ${p.pay_amount} ${p.pay_currency}`} />
        )}
        <p class="pos-amount">
          <span data-field="pay_amount">{p.pay_amount}</span> <span data-field="pay_currency">{p.pay_currency}</span>
        </p>
        {done ? null : <p class="mono wrap">{p.pay_address}</p>}
        <p role="status" data-field="status">
          {p.payment_status === 'waiting'
            ? 'Waiting for the payment…'
            : p.payment_status === 'confirming'
              ? 'Payment seen, confirming…'
              : p.payment_status === 'partially_paid'
                ? `Received ${p.actually_paid} ${p.pay_currency}`
                : p.payment_status.replace(/_/g, ' ')}
        </p>
        <button type="button" class="primary pos-next" onClick={next}>
          {done || p.payment_status === 'partially_paid' ? 'New sale' : 'Cancel and start over'}
        </button>
      </section>
    );
  }
  return (
    <>
      <PageTitle title="Point of sale">Point of sale</PageTitle>
      {failure.value ? <Notice kind="error">{failure.value}</Notice> : null}
      <div class="pos">
        <output class="pos-display" aria-live="polite" aria-label="Amount">
          {money(unitsText(cents.value, digits), priceCurrency)}
        </output>
        <fieldset class="pos-keys">
          <legend class="sr-only">Keypad</legend>
          {KEYS.map((k) => (
            <button type="button" key={k} onClick={() => press(k)} aria-label={k === '⌫' ? 'Delete' : k}>
              {k}
            </button>
          ))}
        </fieldset>
        <fieldset class="pos-tips">
          <legend>Tip</legend>
          {TIPS.map((t) => (
            <button type="button" key={t} aria-pressed={tip.value === t} onClick={() => (tip.value = t)}>
              {t === 0 ? 'No tip' : `${t}%`}
            </button>
          ))}
        </fieldset>
        <label>
          Pay with
          <select
            value={currency.value}
            onChange={(e) => (currency.value = (e.currentTarget as HTMLSelectElement).value)}
          >
            {assets.value.map((a) => (
              <option key={a.code} value={a.code}>
                {a.code} ({a.name})
              </option>
            ))}
          </select>
        </label>
        <label>
          Customer e-mail (for a receipt)
          <input
            type="email"
            autoComplete="off"
            value={email.value}
            onInput={(e) => (email.value = (e.currentTarget as HTMLInputElement).value)}
          />
        </label>
        <button type="button" class="primary pos-charge" disabled={busy.value || cents.value === 0n} onClick={charge}>
          Charge {money(unitsText(total, digits), priceCurrency)}
        </button>
      </div>
      <section aria-labelledby="today-h">
        <h2 id="today-h">Today's sales</h2>
        {sales.value ? (
          <>
            <p data-field="today-total">
              {sales.value.paid_count} paid: {money(sales.value.paid_amount, sales.value.price_currency)}
            </p>
            <ul class="pos-sales">
              {sales.value.sales.map((x) => (
                <li key={x.payment_id}>
                  {when(x.created_at)} · {money(x.price_amount, x.price_currency)} ·{' '}
                  {x.payment_status.replace(/_/g, ' ')}
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </section>
    </>
  );
}
