import { signal } from '@preact/signals';
import type { LiveEvent } from '../dashboard-api/view-types.js';

export type { LiveEvent };

type Listener = (e: LiveEvent) => void;
/** A webhook delivery had an attempt recorded: whoever shows it reads it again. */
type DeliveryListener = (deliveryId: string) => void;

/**
 * One event stream per signed-in page (the service limits them per session): the layout opens it for the merchant
 * on screen, and pages listen here for the payments they show.
 */
const listeners = new Set<Listener>();
const reconnectListeners = new Set<() => void>();
const RETRY_MS = 2000;
/** A new stream replaced one the browser gave up on: its opening is a reconnection. */
let reopened = false;
/** Whether the event stream is up (false while the network is down or the service unreachable). */
export const connected = signal(true);
const deliveryListeners = new Set<DeliveryListener>();
let source: EventSource | null = null;
let following = '';

export function followMerchant(merchantId: string): void {
  if (following === merchantId && source) return;
  stopFollowing();
  following = merchantId;
  source = new EventSource(`/dashboard/api/merchants/${encodeURIComponent(merchantId)}/events`);
  const opened = source;
  // Events sent while the connection was down are gone: whoever shows a payment reads it again once reconnected.
  let dropped = false;
  opened.addEventListener('open', () => {
    connected.value = true;
    if (dropped || reopened) for (const l of reconnectListeners) l();
    dropped = false;
    reopened = false;
  });
  opened.addEventListener('error', () => {
    connected.value = false;
    dropped = true;
    // The browser retries a dropped stream by itself, but gives up when a retry fails outright (offline): then
    // this opens a new one a moment later, for as long as the page follows this merchant.
    if (opened.readyState === EventSource.CLOSED && source === opened)
      setTimeout(() => {
        if (source === opened) {
          source = null;
          reopened = true;
          followMerchant(merchantId);
        }
      }, RETRY_MS);
  });
  source.addEventListener('payment', (e) => {
    const event = JSON.parse((e as MessageEvent<string>).data) as LiveEvent;
    for (const l of listeners) l(event);
  });
  source.addEventListener('delivery', (e) => {
    const { delivery_id } = JSON.parse((e as MessageEvent<string>).data) as { delivery_id: string };
    for (const l of deliveryListeners) l(delivery_id);
  });
}

export function stopFollowing(): void {
  source?.close();
  source = null;
  following = '';
}

/** Returns the function that stops listening (a page's effect cleanup). */
export function onPayment(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Returns the function that stops listening. */
export function onDelivery(listener: DeliveryListener): () => void {
  deliveryListeners.add(listener);
  return () => deliveryListeners.delete(listener);
}

/** Called after the stream came back from a drop (its missed events are lost); returns the function that stops. */
export function onReconnect(listener: () => void): () => void {
  reconnectListeners.add(listener);
  return () => reconnectListeners.delete(listener);
}

// The browser knows first when the device goes offline: an open stream may hang without an error until a packet is
// lost. Offline shows at once; back online, the stream is opened anew and followers read what they show again.
window.addEventListener('offline', () => {
  connected.value = false;
});
window.addEventListener('online', () => {
  const merchantId = following;
  if (!merchantId) return;
  stopFollowing();
  reopened = true;
  followMerchant(merchantId);
});
