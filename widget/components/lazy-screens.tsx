import { t } from '../i18n.js';
import type { CheckoutState } from '../state.js';
import { lazy } from './lazy.js';

/** Shown when a screen's chunk cannot load (the network went away): the error, if any, in words. */
function Unavailable({ state }: { state: CheckoutState }) {
  return <p role="alert">{state.error.value || t('errorTitle')}</p>;
}

// The picker is a chunk of its own: a checkout with `cryptoCurrency` never loads it (open() preloads it when the
// customer will pick). The closing screens share one chunk, preloaded once the QR is on screen.
const screens = () => import('./screens.js');
export const Picker = lazy(() => import('./picker.js').then((m) => m.Picker), Unavailable);
export const Success = lazy(() => screens().then((m) => m.Success), Unavailable);
export const Expired = lazy(() => screens().then((m) => m.Expired), Unavailable);
export const Failure = lazy(() => screens().then((m) => m.Failure), Unavailable);

/** Loads the closing screens ahead of need, so success never waits for a download. */
export function preloadClosingScreens(): void {
  Success.preload();
  Expired.preload();
  Failure.preload();
}
