import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** Signature checked here with node:crypto alone, independently of the service's signing code. */
  verified: boolean;
  at: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  json: any;
}

export type Reply = {
  status: number;
  headers?: Record<string, string>;
  delayMs?: number;
  hang?: boolean;
  /** The answer's body; by default `ok`, or `bad signature` when the signature did not check. */
  body?: string;
};

export interface TestReceiver {
  url: string;
  port: number;
  received: Received[];
  /** Decides each answer; 200 by default. */
  reply: (r: Received) => Reply;
  secret: string;
  waitFor(pred: (all: Received[]) => boolean, ms?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/**
 * A real webhook receiver on 127.0.0.1, port 0. It checks `sha256=` HMAC-SHA256 over `timestamp.body` itself,
 * so a service that signed wrongly fails the tests that use it.
 */
export async function startReceiver(secret: string, path = '/hook'): Promise<TestReceiver> {
  const received: Received[] = [];
  const hanging = new Set<() => void>();
  const r: TestReceiver = {
    url: '',
    port: 0,
    received,
    secret,
    reply: () => ({ status: 200 }),
    async waitFor(pred, ms = 15_000) {
      const end = Date.now() + ms;
      while (!pred(received)) {
        if (Date.now() > end)
          throw new Error(`receiver: condition not met within ${ms} ms (${received.length} requests received)`);
        await new Promise((res) => setTimeout(res, 10));
      }
      return received;
    },
    async close() {
      for (const h of hanging) h();
      server.closeAllConnections();
      await new Promise<void>((res) => server.close(() => res()));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const ts = String(req.headers['x-service-timestamp'] ?? '');
      const sig = String(req.headers['x-service-signature'] ?? '');
      const expected = `sha256=${createHmac('sha256', r.secret).update(`${ts}.${body}`).digest('hex')}`;
      const verified = sig.length === expected.length && timingSafeEqual(Buffer.from(sig), Buffer.from(expected));
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const rec: Received = { headers: req.headers, body, verified, at: Date.now(), json };
      received.push(rec);
      const answer = req.url === path ? r.reply(rec) : { status: 404 };
      const send = () => {
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? (verified ? 'ok' : 'bad signature'));
      };
      if (answer.hang) {
        const release = () => res.destroy();
        hanging.add(release);
        res.on('close', () => hanging.delete(release));
        return;
      }
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
  r.port = (server.address() as AddressInfo).port;
  r.url = `http://127.0.0.1:${r.port}${path}`;
  return r;
}
