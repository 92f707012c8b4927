import type { Context, Hono } from 'hono';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';
import type { ApiDeps } from '../../api-kit/deps.js';
import { StreamSlots } from '../../api-kit/stream-slots.js';
import { checkoutId, currentPayment } from '../../core/checkout/checkout.js';
import { stringifyJson } from '../../core/money/decimal.js';
import type { Payment } from '../../core/payments/payment.js';
import { findPayment } from '../../core/payments/store.js';
import type { DropinEnv } from '../context.js';
import { checkoutPaymentView, qrRenderer } from '../views.js';

/**
 * Open streams at once per checkout (a customer's tabs) and per client address (an office behind one NAT address):
 * each stream holds a connection and some memory, so a client opening hundreds must be told no (429).
 */
export const MAX_STREAMS_PER_CHECKOUT = 5;
export const MAX_STREAMS_PER_ADDRESS = 50;

/** Keep-alive comment interval: proxies drop idle streams after about a minute. */
const KEEPALIVE_MS = 15_000;

/**
 * GET /sessions/{token}/events: Server-Sent Events (`event: payment`, `id` = sequence) with the payment view, sent at
 * once and whenever the service publishes a change of this payment (core/payments/changes.ts: its state, or its
 * confirmations when a block moved them). At each keep-alive it also reads the payment again, so a change another
 * service process made reaches the popup too. The popup falls back to polling GET /sessions/{token} when
 * EventSource is missing or keeps failing.
 */
export function registerEvents(app: Hono<DropinEnv>, deps: ApiDeps, clientAddress: (c: Context) => string) {
  const slots = new StreamSlots();
  app.get('/sessions/:token/events', async (c) => {
    const x = c.get('checkout');
    const first = await currentPayment(deps, x);
    const release = slots.take(
      [
        [`checkout:${checkoutId(x)}`, MAX_STREAMS_PER_CHECKOUT],
        [`ip:${clientAddress(c)}`, MAX_STREAMS_PER_ADDRESS],
      ],
      'poll GET /sessions/{token}',
    );
    return streamSSE(c, async (stream) => {
      try {
        if (first) await follow(stream, first);
        else await stream.writeSSE({ event: 'payment', data: 'null' });
      } finally {
        release();
      }
    });
  });

  async function follow(stream: SSEStreamingApi, first: Payment): Promise<void> {
    const qrImage = qrRenderer();
    let latest: Payment | null = first;
    let wake: () => void = () => {};
    const unsubscribe = deps.changes.subscribe((changes) => {
      const mine = changes.findLast((ch) => ch.payment.id === first.id);
      if (!mine) return;
      latest = mine.payment;
      wake();
    });
    stream.onAbort(() => wake());
    let sent = '';
    try {
      while (!stream.aborted && !stream.closed) {
        const p = latest ?? (await findPayment(deps.db, first.id));
        latest = null;
        if (!p) break;
        const data = stringifyJson(await checkoutPaymentView(deps, p, qrImage));
        if (data !== sent) {
          sent = data;
          await stream.writeSSE({ event: 'payment', id: String(p.sequence), data });
        } else {
          await stream.write(': keep-alive\n\n');
        }
        // A change published while this one was being sent is sent at once, not after the keep-alive.
        if (latest === null) {
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, KEEPALIVE_MS);
            wake = () => {
              clearTimeout(t);
              resolve();
            };
          });
        }
      }
    } finally {
      unsubscribe();
    }
  }
}
