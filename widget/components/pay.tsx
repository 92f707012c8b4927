import { useComputed, useSignal } from '@preact/signals';
import { countdown } from '../format.js';
import { t } from '../i18n.js';
import type { CheckoutState } from '../state.js';
import type { CheckoutPayment } from '../types.js';
import { CopyButton } from './copy-button.js';
import { Closing } from './lazy-screens.js';

export function statusText(p: CheckoutPayment): string {
  switch (p.payment_status) {
    case 'confirming':
      return t('confirming', { n: p.confirmations.count, m: p.confirmations.required });
    case 'partially_paid':
      return t('partially_paid', { amount: `${p.remaining_amount} ${p.ticker}` });
    default:
      return t(p.payment_status);
  }
}

/** What to send and where: exact amount, network, address, tag, the server's QR image, countdown and status. */
export function Pay({ state, canChange }: { state: CheckoutState; canChange: boolean }) {
  const left = useComputed(() => countdown(Date.parse(state.payment.value?.expires_at ?? '') - state.now.value));
  // The QR first: its frame holds the header and the QR alone, the rest of the screen comes in the next one. On a
  // phone (bench/phone.ts, 4x CPU) the fields, status and buttons cost about 100 ms of render, layout and paint,
  // the monospace faces' first lookup included, which the QR no longer waits for.
  const rest = useSignal(false);
  const p = state.payment.value;
  if (!p) return null;
  const untouched = p.payment_status === 'waiting' && p.actually_paid === '0';
  // Once the QR is on screen, the rest is drawn and loads: live status, then the closing screens.
  const shown = () => {
    state.qrShown();
    rest.value = true;
    Closing.preload();
  };
  return (
    <section class="pay">
      <div class="qr-box">
        <img
          key={p.payment_id}
          data-field="qr"
          src={p.qr.code_url}
          alt={t('qrAlt')}
          width={192}
          height={192}
          onLoad={shown}
          onError={shown}
        />
        <a class="wallet" href={p.qr.payment_uri}>
          {t('openWallet')}
        </a>
      </div>
      {rest.value && (
        <>
          {/* Wallet pay, once its chunk drew itself here (after the QR, only when the browser has a wallet). */}
          {state.wallet.value}
          <dl class="fields">
            <div class="row">
              <dt>{t('sendExactly')}</dt>
              <dd>
                <strong class="mono">
                  <span data-field="pay_amount">{p.pay_amount}</span> <span data-field="pay_currency">{p.ticker}</span>
                </strong>
                <CopyButton text={p.pay_amount} label={t('copyAmount')} />
              </dd>
            </div>
            <div class="row">
              <dt>{t('network')}</dt>
              <dd>
                <span data-field="network" class="net">
                  {p.network_name}
                </span>
              </dd>
            </div>
            <div class="row">
              <dt>{t('address')}</dt>
              <dd>
                <code data-field="pay_address" class="mono addr">
                  {p.pay_address}
                </code>
                <CopyButton text={p.pay_address} label={t('copyAddress')} />
              </dd>
            </div>
            {p.extra_id !== null && (
              <div class="row">
                <dt>{t('tag')}</dt>
                <dd>
                  <code data-field="extra_id" class="mono">
                    {p.extra_id}
                  </code>
                  <CopyButton text={p.extra_id} label={t('copyTag')} />
                  <p class="warn">{t('tagWarning')}</p>
                </dd>
              </div>
            )}
            {p.payment_status === 'partially_paid' && (
              <div class="row">
                <dt>{t('received')}</dt>
                <dd class="mono">
                  {p.actually_paid} {p.ticker} · {t('remaining')}:{' '}
                  <span data-field="remaining_amount">{p.remaining_amount}</span> {p.ticker}
                  <CopyButton text={p.remaining_amount} label={t('copyRemaining')} />
                </dd>
              </div>
            )}
          </dl>
          <p class="status" data-field="status" data-status={p.payment_status} role="status" aria-live="polite">
            {statusText(p)}
          </p>
          {p.payment_status === 'confirming' && (
            <progress max={p.confirmations.required} value={p.confirmations.count} aria-label={statusText(p)} />
          )}
          {untouched && (
            <p class="muted">
              {t('expiresIn')}{' '}
              <span data-field="countdown" role="timer">
                {left.value}
              </span>
            </p>
          )}
          <div class="actions">
            {state.session.value?.test_mode && p.remaining_amount !== '0' && (
              <button type="button" class="primary" disabled={state.busy.value} onClick={() => state.simulate()}>
                {t('simulate')}
              </button>
            )}
            {canChange && untouched && (
              <button type="button" class="link" disabled={state.busy.value} onClick={() => state.openPicker()}>
                {t('otherCurrency')}
              </button>
            )}
          </div>
        </>
      )}
    </section>
  );
}
