import type { DropinApi } from './api.js';
import type { CheckoutPayment } from './types.js';

/**
 * Test mode's "Simulate payment": the service pays on the sandbox chain, one block at a time, so the popup shows
 * the confirmations (1 of 2) before it finishes.
 */
export async function simulate(api: DropinApi, token: string, update: (p: CheckoutPayment) => void): Promise<void> {
  const step = (body: { pay?: boolean; blocks: number }) =>
    api.call<{ payment: CheckoutPayment }>(`/sessions/${token}/simulate`, body);
  const first = await step({ blocks: 1 });
  update(first.payment);
  if (first.payment.payment_status === 'confirming') {
    await new Promise((r) => setTimeout(r, 1200));
    update((await step({ pay: false, blocks: 1 })).payment);
  }
}
