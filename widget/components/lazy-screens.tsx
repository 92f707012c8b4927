import { loadScreens } from '../chunks.js';
import { t } from '../i18n.js';
import type { CheckoutState } from '../state.js';
import { lazy } from './lazy.js';

/** Shown when a screen's chunk cannot load (the network went away): the error, if any, in words. */
function Unavailable({ state }: { state: CheckoutState }) {
  return <p role="alert">{state.error.value || t('errorTitle')}</p>;
}

// The picker is in checkout.js, not a chunk: in a chunk of its own it cost the customer-picks flow 0.4 KB more
// (a separate gzip stream starts with an empty dictionary) than it costs a preset checkout inside the script.
// The closing screens are a chunk, preloaded once the QR is on screen.
export { Picker } from './picker.js';
/** Success, expiry or error; `Closing.preload()` fetches them ahead of need, so success never waits. */
export const Closing = lazy(() => loadScreens().then((m) => m.Closing), Unavailable);
