import { t } from '../i18n.js';
import type { CheckoutState } from '../state.js';
import css from './screens.css?inline';

export function Success({
  state,
  onDone,
  redirecting,
}: {
  state: CheckoutState;
  onDone: (() => void) | null;
  redirecting: boolean;
}) {
  const p = state.payment.value;
  return (
    <section class="done">
      <style>{css}</style>
      <svg class="badge-ok" viewBox="0 0 24 24" aria-hidden="true">
        <path d="M5 12l5 5 9-10" />
      </svg>
      <h3>{t('successTitle')}</h3>
      <p class="status" data-field="status" data-status="finished" role="status" aria-live="polite">
        {t('successText')}
      </p>
      {p && (
        <p class="mono">
          {p.actually_paid} {p.ticker}
        </p>
      )}
      {redirecting && <p class="muted">{t('redirecting')}</p>}
      {onDone && (
        <button type="button" class="primary" onClick={onDone}>
          {t('done')}
        </button>
      )}
    </section>
  );
}

export function Expired({ state }: { state: CheckoutState }) {
  return (
    <section class="done">
      <style>{css}</style>
      <h3>{t('expiredTitle')}</h3>
      <p class="status" data-field="status" data-status="expired" role="status" aria-live="polite">
        {t('expiredText')}
      </p>
      <button type="button" class="primary" disabled={state.busy.value} onClick={() => state.retry()}>
        {t('retry')}
      </button>
      {/* Where the customer may choose (a picker was offered), starting again may be in another asset too. */}
      {state.currencies.value && (
        <button type="button" class="link" disabled={state.busy.value} onClick={() => state.openPicker()}>
          {t('otherCurrency')}
        </button>
      )}
    </section>
  );
}

export function Failure({ state, onClose }: { state: CheckoutState; onClose: (() => void) | null }) {
  return (
    <section class="done">
      <style>{css}</style>
      <h3>{t('errorTitle')}</h3>
      <p role="alert">{state.error.value}</p>
      {onClose && (
        <button type="button" class="primary" onClick={onClose}>
          {t('close')}
        </button>
      )}
    </section>
  );
}

/** The closing screen the state is on: success, expiry, or the error that stopped the checkout. */
export function Closing({
  state,
  onClose,
  redirecting,
}: {
  state: CheckoutState;
  onClose: (() => void) | null;
  redirecting: boolean;
}) {
  const screen = state.screen.value;
  return screen === 'success' ? (
    <Success state={state} onDone={onClose} redirecting={redirecting} />
  ) : screen === 'expired' ? (
    <Expired state={state} />
  ) : (
    <Failure state={state} onClose={onClose} />
  );
}
