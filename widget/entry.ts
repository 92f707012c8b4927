import { createOpen } from './open.js';

// The script tag's own origin is the service's (DESIGN.md); read now, while this script is the current one.
const src = (document.currentScript as HTMLScriptElement | null)?.src;

/** The one global of the drop-in: `window.ServiceCheckout`. */
(window as unknown as { ServiceCheckout: unknown }).ServiceCheckout = {
  version: '1',
  open: createOpen(src ? new URL(src).origin : location.origin),
};
