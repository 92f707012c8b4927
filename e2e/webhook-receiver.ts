import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedEvent {
  delivery: string;
  verified: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: webhook payloads are read as plain JSON
  body: any;
}

/**
 * A merchant's webhook endpoint on port 0 that checks each signature with node:crypto exactly as spec section 6
 * says (HMAC-SHA256 over `timestamp.raw-body`, constant-time compare). `secret` is set once the merchant exists.
 */
export async function startWebhookReceiver(): Promise<{
  url: string;
  events: ReceivedEvent[];
  setSecret(s: string): void;
  close(): Promise<void>;
}> {
  const events: ReceivedEvent[] = [];
  let secret = '';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const ts = String(req.headers['x-service-timestamp'] ?? '');
      const sig = String(req.headers['x-service-signature'] ?? '');
      const want = `sha256=${createHmac('sha256', secret).update(`${ts}.${raw}`).digest('hex')}`;
      const verified = sig.length === want.length && timingSafeEqual(Buffer.from(sig), Buffer.from(want));
      let body: unknown = null;
      try {
        body = JSON.parse(raw);
      } catch {
        body = null;
      }
      events.push({ delivery: String(req.headers['x-service-delivery'] ?? ''), verified, body });
      res.writeHead(verified ? 200 : 400).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    events,
    setSecret: (s) => {
      secret = s;
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}
