import { safeCall, TAG } from './safe.js';
import type { CheckoutError, CheckoutHandle, CheckoutOptions, CheckoutResult } from './types.js';

/**
 * The script tag (`checkout.js`): a loader of a few hundred bytes that defines `window.ServiceCheckout` at once
 * and starts loading the checkout itself (`core.js`, an ES module next to this script, which loads the rest in
 * chunks only when a screen needs them). Loading starts now rather than at `open()`, so the popup opens as fast
 * as with one script; a page that never opens the checkout pays the same as before.
 */
type Core = typeof import('./core.js');

// The script tag's own origin is the service's (DESIGN.md); read now, while this script is the current one.
const src = (document.currentScript as HTMLScriptElement | null)?.src || `${location.origin}/dropin/v1/checkout.js`;
const origin = new URL(src).origin;
let core: Promise<Core> | null = null;
const load = () => {
  // A failed load (network) is retried by the next open() instead of being remembered.
  core ??= (import(/* @vite-ignore */ new URL('core.js', src).href) as Promise<Core>).catch((e: unknown) => {
    core = null;
    throw e;
  });
  return core;
};
void load().catch(() => {});

/** `ServiceCheckout.open(options)`: the handle at once; the popup as soon as the checkout code is in. */
function open(options: CheckoutOptions): CheckoutHandle {
  let inner: CheckoutHandle | null = null;
  let closed = false;
  const result = load().then(
    (m): Promise<CheckoutResult> => {
      if (closed) return Promise.resolve({ status: 'closed', payment: null });
      inner = m.createOpen(origin)(options);
      return inner.result;
    },
    (): never => {
      const e: CheckoutError = { code: 'network', message: `Cannot load the checkout from ${origin}` };
      console.error(`${TAG} ${e.message}`);
      safeCall('onError', options?.onError, e);
      throw e;
    },
  );
  result.catch(() => {});
  return {
    close() {
      if (closed) return;
      closed = true;
      if (inner) inner.close();
      else safeCall('onClose', options?.onClose);
    },
    result,
  };
}

/** The one global of the drop-in: `window.ServiceCheckout`. */
(window as unknown as { ServiceCheckout: unknown }).ServiceCheckout = { version: '1', open };
