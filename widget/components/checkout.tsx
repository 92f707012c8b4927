import type { ComponentChild } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { price } from '../format.js';
import { locale, t } from '../i18n.js';
import type { CheckoutState } from '../state.js';
import { chunksLoaded } from './lazy.js';
import { Closing, Picker } from './lazy-screens.js';
import { Pay } from './pay.js';

// What Tab reaches in the dialog: nothing of ours takes a tabindex of its own.
const FOCUSABLE = 'button:enabled,a[href],input:enabled';

export interface CheckoutProps {
  state: CheckoutState;
  /** `modal`: the drop-in popup; `page`: the hosted payment page (same pieces, no backdrop, no close). */
  variant: 'modal' | 'page';
  onClose: () => void;
  /** Below the dialog's body: the hosted page's way back to the store (page.ts), nothing in the popup. */
  footer?: ComponentChild;
}

/**
 * The checkout shell: a labelled dialog that keeps focus inside (Tab wraps), closes on Escape or a backdrop
 * click, and moves focus into the new screen when the old one disappears.
 */
export function Checkout({ state, variant, onClose, footer }: CheckoutProps) {
  const dialog = useRef<HTMLDivElement>(null);
  const screen = state.screen.value;
  const chunks = chunksLoaded.value;
  const session = state.session.value;
  const modal = variant === 'modal';

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    const root = el.getRootNode() as ShadowRoot | Document;
    // The previous screen's control is gone (or focus sits on the dialog itself): move into the new screen.
    if (!root.activeElement || root.activeElement === el || !el.contains(root.activeElement)) {
      const first =
        screen === 'pay' || screen === 'loading' ? null : el.querySelector<HTMLElement>(`.body ${FOCUSABLE}`);
      (first ?? el).focus();
    }
  }, [screen, chunks]);

  const onKeyDown = (e: KeyboardEvent) => {
    const el = dialog.current;
    if (!el) return;
    if (e.key === 'Escape' && modal) {
      e.preventDefault();
      onClose();
      return;
    }
    if (e.key !== 'Tab') return;
    const items = [...el.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    const active = (el.getRootNode() as ShadowRoot).activeElement;
    if (e.shiftKey && (active === first || active === el)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && active === last) {
      e.preventDefault();
      first.focus();
    }
  };

  const body =
    screen === 'loading' ? (
      <p class="muted loading" role="status">
        {t('loading')}
      </p>
    ) : screen === 'picker' ? (
      <Picker state={state} />
    ) : screen === 'pay' ? (
      <Pay state={state} canChange={state.currencies.value !== null} />
    ) : (
      <Closing state={state} onClose={modal ? onClose : null} redirecting={state.redirecting.value} />
    );

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the backdrop click mirrors Escape, which the dialog handles for keyboards
    // biome-ignore lint/a11y/useKeyWithClickEvents: same: Escape is the keyboard way out
    <div
      class={modal ? 'backdrop' : 'page'}
      onClick={(e) => {
        if (modal && e.target === e.currentTarget) onClose();
      }}
    >
      <div
        ref={dialog}
        class="dialog"
        role="dialog"
        aria-modal={modal}
        aria-labelledby="sc-title"
        lang={locale.value}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <header>
          <div>
            <h2 id="sc-title">{t('title')}</h2>
            {session && (
              <p class="muted">
                {session.merchant_name} · {t('total')}{' '}
                <span data-field="price_amount">{price(session.amount, session.currency, locale.value)}</span>
                {session.test_mode && <span class="net tag">{t('testMode')}</span>}
              </p>
            )}
          </div>
          {modal && (
            <button type="button" class="close" aria-label={t('close')} onClick={onClose}>
              <svg viewBox="0 0 24 24" aria-hidden="true">
                <path d="M6 6l12 12M18 6L6 18" />
              </svg>
            </button>
          )}
        </header>
        <div class="body">{body}</div>
        {state.error.value && screen !== 'error' && (
          <p class="error" role="alert">
            {state.error.value}
          </p>
        )}
        {footer}
      </div>
    </div>
  );
}
