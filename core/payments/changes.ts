import type { Payment } from './payment.js';

/**
 * What happened to a payment, for whoever follows payments as they move (the webhook dispatcher, the drop-in's live
 * status streams). Published after the change committed.
 * - `state`: its status, paid amount or detail changed; a `payment.updated` event was written with it (outbox).
 * - `confirmations`: a new block moved its deposits' confirmations and nothing else (the popup shows "1 of 2").
 * - `created`: the payment was just created (the dashboard's payment list shows it without a reload).
 * Followers pick the kinds they need (the webhook dispatcher: `state` only).
 */
export interface PaymentChange {
  kind: 'state' | 'confirmations' | 'created';
  payment: Payment;
}

export type PaymentChangeListener = (changes: readonly PaymentChange[]) => void;

/**
 * The service's one channel of payment changes: writers publish after their transaction commits, followers
 * subscribe. In-process only: with several service processes on one store, followers catch the others' changes by
 * reading the store on a timer (the dispatcher polls the outbox, a status stream re-reads at each keep-alive).
 */
export class PaymentChanges {
  readonly #listeners = new Set<PaymentChangeListener>();

  publish(changes: readonly PaymentChange[]): void {
    if (changes.length === 0) return;
    for (const listener of this.#listeners) listener(changes);
  }

  /** Returns the function that unsubscribes. */
  subscribe(listener: PaymentChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/** The `state` changes of these payments, as writers publish them. */
export function stateChanges(payments: readonly Payment[]): PaymentChange[] {
  return payments.map((payment) => ({ kind: 'state', payment }));
}
