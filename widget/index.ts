/**
 * The drop-in as an ES module for bundler users: `import { open } from '.../checkout.mjs'`. A bundled copy
 * cannot find the service from its own script tag, so pass `apiBase`.
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

export const version = '1';

/** Opens the checkout popup; see CheckoutOptions. Without `apiBase`, the page's own origin is used. */
export const open = createOpen(typeof location === 'undefined' ? '' : location.origin);
