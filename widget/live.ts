import type { DropinApi, SessionView } from './api.js';
import type { CheckoutState } from './state.js';
import type { CheckoutPayment } from './types.js';
import { offerWallet } from './wallet/discover.js';

const POLL_MS = 3000;

/** GET /sessions/{token}: the checkout and its current payment (polling, and the hosted page's first view). */
export function readSession(api: DropinApi, token: string) {
  return api.call<{ session: SessionView; payment: CheckoutPayment | null }>(`/sessions/${token}`);
}
/** EventSource retries by itself; after this many failures in a row we poll instead (proxies that buffer SSE). */
const MAX_STREAM_ERRORS = 3;

/**
 * What starts once the QR of the payment `state` shows is on screen: its live status, Server-Sent Events first,
 * polling GET /sessions/{token} as the fallback, each state going to `state.update`; and wallet pay, when the
 * payment is offered to wallets and the browser has one. Returns a stop function (of the live status).
 */
export function followPayment(state: CheckoutState, token: string): () => void {
  const { api } = state;
  const onPayment = (p: CheckoutPayment) => state.update(p);
  offerWallet(state);
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let source: EventSource | undefined;

  const poll = async () => {
    if (stopped) return;
    try {
      const { payment } = await readSession(api, token);
      if (payment && !stopped) onPayment(payment);
    } catch {
      // transient: try again at the next tick
    }
    if (!stopped) timer = setTimeout(poll, POLL_MS);
  };

  if (typeof EventSource === 'function') {
    let errors = 0;
    source = new EventSource(`${api.base}/api/dropin/v1/sessions/${token}/events`);
    source.addEventListener('payment', (e) => {
      errors = 0;
      const data = (e as MessageEvent<string>).data;
      if (data !== 'null') onPayment(JSON.parse(data) as CheckoutPayment);
    });
    source.onerror = () => {
      errors += 1;
      if (errors >= MAX_STREAM_ERRORS && !stopped) {
        source?.close();
        source = undefined;
        void poll();
      }
    };
  } else {
    void poll();
  }

  return () => {
    stopped = true;
    source?.close();
    if (timer !== undefined) clearTimeout(timer);
  };
}
