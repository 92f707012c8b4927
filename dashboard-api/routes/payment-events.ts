import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { StreamSlots } from '../../api-kit/stream-slots.js';
import type { PaymentChange } from '../../core/payments/changes.js';
import { posPaymentIds } from '../../core/pos/store.js';
import { roleIn } from '../../core/users/memberships.js';
import { findLiveSession } from '../../core/users/sessions.js';
import type { DashCtx, DashEnv } from '../context.js';
import { paymentRowView } from '../views.js';

/** Open streams at once per session (a few tabs) and per client address. */
export const MAX_STREAMS_PER_SESSION = 5;
export const MAX_STREAMS_PER_ADDRESS = 50;
const KEEPALIVE_MS = 15_000;

/**
 * GET /merchants/{id}/events: Server-Sent Events of this merchant's payments as they are created and change
 * (`event: payment`, data `{change, payment}`), from the service's payment-change bus; and of its webhook
 * deliveries as each attempt is recorded (`event: delivery`, data `{delivery_id}`: a page showing that delivery
 * reads it again, so "pending, next attempt ..." turns into the attempt's outcome without a reload). The session
 * and membership are read again before each batch of events is sent (a signed-out, deactivated or removed user
 * gets no further event, however busy the merchant) and at each quiet keep-alive (so such a stream ends within
 * 15 s anyway). A cashier's stream carries the point of sale's payments only, and no deliveries: the counter needs
 * its own sales' status, never the web shop's customers and orders.
 */
export function registerPaymentEvents(app: Hono<DashEnv>, x: DashCtx): void {
  const slots = new StreamSlots();
  app.get('/merchants/:merchant_id/events', (c) => {
    const merchantId = c.get('merchant').id;
    const signedIn = c.get('signedIn');
    const cashier = c.get('role') === 'cashier';
    const release = slots.take(
      [
        [`session:${signedIn.id}`, MAX_STREAMS_PER_SESSION],
        [`ip:${x.clientAddress(c)}`, MAX_STREAMS_PER_ADDRESS],
      ],
      'reload the page',
    );
    return streamSSE(c, async (stream) => {
      const queue: { event: 'payment' | 'delivery'; data: string; paymentId?: string }[] = [];
      let wake = () => {};
      const unsubscribe = x.deps.changes.subscribe((changes) => {
        const mine = changes.filter((ch) => ch.payment.merchant_id === merchantId);
        if (mine.length === 0) return;
        for (const ch of mine)
          queue.push({
            event: 'payment',
            data: JSON.stringify(liveEventView(ch)),
            paymentId: ch.payment.id,
          });
        wake();
      });
      const unfollowDeliveries = x.deps.webhooks.onRecorded((recorded) => {
        if (cashier) return;
        const mine = [...new Set(recorded.filter((r) => r.merchantId === merchantId).map((r) => r.deliveryId))];
        if (mine.length === 0) return;
        for (const id of mine) queue.push({ event: 'delivery', data: JSON.stringify({ delivery_id: id }) });
        wake();
      });
      stream.onAbort(() => wake());
      const stillAllowed = async () => {
        const live = await findLiveSession(x.deps.db, signedIn.token, x.deps.clock.now(), false);
        return live !== undefined && (await roleIn(x.deps.db, live.userId, merchantId)) !== undefined;
      };
      try {
        await stream.write(': connected\n\n');
        while (!stream.aborted && !stream.closed) {
          if (queue.length > 0 && !(await stillAllowed())) break;
          let batch = queue.splice(0);
          if (cashier && batch.length > 0) {
            const sales = await posPaymentIds(
              x.deps.db,
              merchantId,
              batch.flatMap((m) => (m.paymentId ? [m.paymentId] : [])),
            );
            batch = batch.filter((m) => m.paymentId !== undefined && sales.has(m.paymentId));
          }
          for (const { event, data } of batch) await stream.writeSSE({ event, data });
          const woken = await new Promise<boolean>((resolve) => {
            const t = setTimeout(() => resolve(false), KEEPALIVE_MS);
            wake = () => {
              clearTimeout(t);
              resolve(true);
            };
          });
          if (woken) continue;
          if (!(await stillAllowed())) break;
          await stream.write(': keep-alive\n\n');
        }
      } finally {
        unsubscribe();
        unfollowDeliveries();
        release();
      }
    });
  });
}

/** A `payment` event's data: the kind of change and the payment as the list shows it. */
function liveEventView(ch: PaymentChange) {
  return { change: ch.kind, payment: paymentRowView(ch.payment) };
}
export type LiveEvent = ReturnType<typeof liveEventView>;
