import type { PaymentRow } from './types.js';

export interface LiveEvent {
  change: 'created' | 'state' | 'confirmations';
  payment: PaymentRow;
}
type Listener = (e: LiveEvent) => void;
/** A webhook delivery had an attempt recorded: whoever shows it reads it again. */
type DeliveryListener = (deliveryId: string) => void;

/**
 * One event stream per signed-in page (the service limits them per session): the layout opens it for the merchant
 * on screen, and pages listen here for the payments they show.
 */
const listeners = new Set<Listener>();
const deliveryListeners = new Set<DeliveryListener>();
let source: EventSource | null = null;
let following = '';

export function followMerchant(merchantId: string): void {
  if (following === merchantId && source) return;
  stopFollowing();
  following = merchantId;
  source = new EventSource(`/dashboard/api/merchants/${encodeURIComponent(merchantId)}/events`);
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
