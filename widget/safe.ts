/** Console lines of the drop-in start with this, so merchants can find and filter them. */
export const TAG = '[ServiceCheckout]';

/** Calls a merchant callback; an exception in it is logged, never propagated into our flow or their page. */
export function safeCall<A extends unknown[]>(name: string, fn: ((...a: A) => void) | undefined, ...args: A): void {
  if (!fn) return;
  try {
    fn(...args);
  } catch (e) {
    console.error(`${TAG} your ${name} callback threw:`, e);
  }
}
