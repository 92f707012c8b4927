/**
 * A complete payment.updated receiver in plain Node `http`: verifies the signature, deduplicates on
 * X-Service-Delivery, ignores stale `sequence`, answers 2xx at once and fulfils only on `finished`.
 *
 *   WEBHOOK_SECRET=whsec_... PORT=4000 npx tsx examples/webhook-receiver.ts
 *
 * It keeps its state in memory to stay short; a real shop records delivery ids and sequences in its database
 * (a unique index on the delivery id makes the dedupe survive restarts and several receiver processes).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { type PaymentUpdatedEvent, verifyWebhook, WebhookVerificationError } from 'crypto-payments-service';

export interface ReceiverOptions {
  secret: string;
  /** Ships the order. Called once per payment, after the response was sent. */
  fulfil: (event: PaymentUpdatedEvent) => Promise<void> | void;
  log?: (entry: Record<string, unknown>) => void;
}

const MAX_BODY = 256 * 1024;

function readRaw(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) reject(new Error('body too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function createReceiver(o: ReceiverOptions): Server {
  const log = o.log ?? ((e) => process.stdout.write(`${JSON.stringify(e)}\n`));
  const seenDeliveries = new Set<string>();
  const lastSequence = new Map<string, number>();
  const fulfilled = new Set<string>();

  return createServer(async (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    let event: PaymentUpdatedEvent;
    try {
      // Verify the exact bytes received: never re-serialise parsed JSON before checking the signature.
      const raw = await readRaw(req);
      event = verifyWebhook(raw, req.headers, o.secret);
    } catch (e) {
      log({ rejected: e instanceof WebhookVerificationError ? e.code : 'unreadable' });
      res.writeHead(400).end();
      return;
    }
    const deliveryId = String(req.headers['x-service-delivery'] ?? '');
    // Acknowledge first: the service times out after 10 s and retries; slow work belongs after the answer.
    res.writeHead(204).end();

    if (seenDeliveries.has(deliveryId)) return log({ ignored: 'duplicate', delivery_id: deliveryId });
    seenDeliveries.add(deliveryId);
    if (event.test) return log({ ignored: 'test', delivery_id: deliveryId });
    const p = event.payment;
    if (p.sequence <= (lastSequence.get(p.payment_id) ?? 0))
      return log({ ignored: 'stale', payment_id: p.payment_id, sequence: p.sequence });
    lastSequence.set(p.payment_id, p.sequence);
    log({ applied: p.payment_status, payment_id: p.payment_id, sequence: p.sequence });
    // Fulfil only on finished, once per payment. Redirects and screenshots are never proof of payment.
    if (p.payment_status !== 'finished' || fulfilled.has(p.payment_id)) return;
    fulfilled.add(p.payment_id);
    try {
      await o.fulfil(event);
      log({ fulfilled: p.order_id, payment_id: p.payment_id });
    } catch (e) {
      fulfilled.delete(p.payment_id);
      log({ fulfil_failed: p.payment_id, error: e instanceof Error ? e.message : String(e) });
    }
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) {
    process.stderr.write('Set WEBHOOK_SECRET to the webhook secret of your merchant\n');
    process.exit(1);
  }
  // Stand-in for shipping: slow on purpose, to show it never delays the 2xx.
  const fulfilDelayMs = Number(process.env.FULFIL_DELAY_MS ?? 0);
  const server = createReceiver({ secret, fulfil: () => new Promise((r) => setTimeout(r, fulfilDelayMs)) });
  server.listen(Number(process.env.PORT ?? 4000), '127.0.0.1', () => {
    const a = server.address();
    process.stdout.write(`${JSON.stringify({ listening: typeof a === 'object' && a ? a.port : null })}\n`);
  });
}
