/**
 * The parts of the checkout that the QR does not need, each loaded when first needed. Here they are dynamic
 * imports (the ES module build and the hosted page inline them); the script tag build (checkout.js) swaps in
 * chunk-scripts.ts, which loads each one as a script next to checkout.js.
 */
export const loadScreens = () => import('./components/screens.js');
export const loadLive = () => import('./live.js');
export const loadOptionMessages = () => import('./option-messages.js');
export const loadSimulate = () => import('./simulate.js');
