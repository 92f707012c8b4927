import { sendSession } from './api.js';
import { safeCall, TAG } from './safe.js';
import type { CheckoutError, CheckoutHandle, CheckoutOptions, CheckoutResult } from './types.js';

type CheckoutModule = typeof import('./index.js');

// The script tag's own address gives the service's origin (docs/architecture.md) and the folder of the checkout module; read
// now, while this script is the current one.
const script = document.currentScript as HTMLScriptElement | null;
const src = script?.src || `${location.origin}/dropin/v1/checkout.js`;

/**
 * checkout.js is the classic script a shop adds with one tag; the checkout itself is an ES module beside it, with
 * the parts the QR does not need as chunks it imports when needed. Fetched at once, so it is in by the time a
 * customer clicks "Buy". A dynamic import carries this script's CSP nonce to the module and its chunks.
 */
const checkout: Promise<CheckoutModule> = import(/* @vite-ignore */ new URL('checkout.module.js', src).href);
let loaded = false;
checkout.then(
  () => {
    loaded = true;
  },
  () => {},
);
const origin = new URL(src).origin;

/** `ServiceCheckout.open(options)`: hands over to the module's open() once it is in; never throws into the page. */
function open(options: CheckoutOptions): CheckoutHandle {
  let inner: CheckoutHandle | null = null;
  let closed = false;
  // A tap before the module is in: the session request goes now, alongside the module, rather than after it (one
  // round trip instead of two in a row). Only with a public key (a secret key never leaves the page; the module
  // refuses it) to this script's own service; the module checks the options before it reads the answer.
  let sent: Promise<Response> | undefined;
  try {
    if (!loaded && !options.apiBase && options.publicKey.startsWith('dk_')) {
      sent = sendSession(origin, options);
      sent.catch(() => {});
    }
  } catch {
    // Options the module refuses in its own words.
  }
  const result = checkout.then(
    (m): Promise<CheckoutResult> | CheckoutResult => {
      if (closed) return { status: 'closed', payment: null };
      inner = m.createOpen(origin)(options, undefined, sent);
      return inner.result;
    },
    () => {
      const e: CheckoutError = { code: 'network', message: `Cannot load the checkout from ${src}` };
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

/** The one global of the drop-in. */
(window as unknown as { ServiceCheckout: unknown }).ServiceCheckout = { version: '1', open };
