/**
 * The drop-in as an ES module: what checkout.js loads (checkout.module.js, with its chunks), and, built as one file
 * (checkout.mjs), what bundler users import: `import { open } from '.../checkout.mjs'`. A bundled copy cannot find
 * the service from its own script tag, so pass `apiBase`.
 */
import { createOpen } from './open.js';

export type {
  CheckoutError,
  CheckoutErrorCode,
  CheckoutHandle,
  CheckoutOptions,
  CheckoutPayment,
  CheckoutResult,
  CheckoutStatus,
} from './types.js';
export { createOpen };

export const version = '1';

/** Opens the checkout popup; see CheckoutOptions. Without `apiBase`, the page's own origin is used. */
export const open = createOpen(typeof location === 'undefined' ? '' : location.origin);
