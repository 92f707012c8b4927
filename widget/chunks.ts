/**
 * The parts of the checkout that the QR does not need, each an ES module chunk loaded when first needed (next to
 * checkout.module.js; the one-file builds, checkout.mjs and page.js, inline them).
 */
export const loadScreens = () => import('./components/screens.js');
export const loadLive = () => import('./live.js');
export const loadSimulate = () => import('./simulate.js');
export const loadOptionMessages = () => import('./option-messages.js');
