import type { EventEmitter } from 'node:events';
import type { Context } from 'hono';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';
import type { ApiDeps } from '../../api-kit/deps.js';
import { AppError } from '../../core/errors.js';
import { stringifyJson } from '../../core/money/decimal.js';
import type { Payment } from '../../core/payments/payment.js';
import { checkoutId, type DropinEnv } from '../context.js';
import { checkoutPaymentView, currentPayment } from '../views.js';

/**
 * Open streams at once per checkout (a customer's tabs) and per client address (an office behind one NAT address):
 * each stream holds a connection and some memory, so a client opening hundreds must be told no (429).
 */
export const MAX_STREAMS_PER_CHECKOUT = 5;
export const MAX_STREAMS_PER_ADDRESS = 50;

/** Counts open streams per key; `open` refuses past a limit, the returned function gives the place back. */
class StreamSlots {
  private readonly open = new Map<string, number>();

  take(slots: [key: string, max: number][]): () => void {
    for (const [key, max] of slots) {
      if ((this.open.get(key) ?? 0) >= max) {
        throw new AppError(
          'RATE_LIMITED',
          `Too many open event streams (at most ${max}); close one, or poll GET /sessions/{token}`,
          { retryAfter: 5 },
        );
      }
    }
    for (const [key] of slots) this.open.set(key, (this.open.get(key) ?? 0) + 1);
    return () => {
      for (const [key] of slots) {
        const n = (this.open.get(key) ?? 1) - 1;
        if (n <= 0) this.open.delete(key);
        else this.open.set(key, n);
      }
    };
  }
}

/** Keep-alive comment interval: proxies drop idle streams after about a minute. */
const KEEPALIVE_MS = 15_000;
/** While confirming, blocks move confirmations without a status change (no event): re-read this often. */
const CONFIRMING_POLL_MS = 1_000;

/**
 * GET /sessions/{token}/events: Server-Sent Events (`event: payment`, `id` = sequence) with the payment view,
 * sent at once and on every change the service's `changes` emitter reports for this payment. The popup falls
 * back to polling GET /sessions/{token} when EventSource is missing or keeps failing.
 */
export function eventsHandler(deps: ApiDeps, changes: EventEmitter, clientAddress: (c: Context) => string) {
  const slots = new StreamSlots();
  return async (c: Context<DropinEnv>) => {
    const x = c.get('checkout');
    const first = await currentPayment(deps, x);
    const release = slots.take([
      [`checkout:${checkoutId(x)}`, MAX_STREAMS_PER_CHECKOUT],
      [`ip:${clientAddress(c)}`, MAX_STREAMS_PER_ADDRESS],
    ]);
    return streamSSE(c, async (stream) => {
      try {
        await follow(stream);
      } finally {
        release();
      }
    });

    async function follow(stream: SSEStreamingApi): Promise<void> {
      if (!first) {
        await stream.writeSSE({ event: 'payment', data: 'null' });
        return;
      }
      let wake: (() => void) | null = null;
      let dirty = true;
      const onChanged = (ps: Payment[]) => {
        if (ps.some((p) => p.id === first.id)) {
          dirty = true;
          wake?.();
        }
      };
      changes.on('changed', onChanged);
      stream.onAbort(() => wake?.());
      let last = '';
      let status = first.status;
      try {
        while (!stream.aborted && !stream.closed) {
          if (dirty || status === 'confirming') {
            dirty = false;
            const p = await deps.db.selectFrom('payments').selectAll().where('id', '=', first.id).executeTakeFirst();
            if (!p) break;
            status = p.status;
            const data = stringifyJson(await checkoutPaymentView(deps, p));
            if (data !== last) {
              last = data;
              await stream.writeSSE({ event: 'payment', id: String(p.sequence), data });
            } else {
              await stream.write(': keep-alive\n\n');
            }
          } else {
            await stream.write(': keep-alive\n\n');
          }
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, status === 'confirming' ? CONFIRMING_POLL_MS : KEEPALIVE_MS);
            wake = () => {
              clearTimeout(t);
              resolve();
            };
          });
          wake = null;
        }
      } finally {
        changes.off('changed', onChanged);
      }
    }
  };
}
