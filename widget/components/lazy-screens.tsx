import { loadPicker, loadScreens } from '../chunks.js';
import { t } from '../i18n.js';
import type { CheckoutState } from '../state.js';
import { lazy } from './lazy.js';

/** Shown when a screen's chunk cannot load (the network went away): the error, if any, in words. */
function Unavailable({ state }: { state: CheckoutState }) {
  return <p role="alert">{state.error.value || t('errorTitle')}</p>;
}

// The picker is a chunk of its own: a checkout with `cryptoCurrency` never loads it (open() preloads it when the
// customer will pick). The closing screens share one chunk, preloaded once the QR is on screen.
export const Picker = lazy(() => loadPicker().then((m) => m.Picker), Unavailable);
/** Success, expiry or error; `Closing.preload()` fetches them ahead of need, so success never waits. */
export const Closing = lazy(() => loadScreens().then((m) => m.Closing), Unavailable);
