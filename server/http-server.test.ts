import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestService } from './testing/harness.js';

/** One raw connection to the service: write requests, read what came back, see when the server closed it. */
function rawConnection(url: string) {
  const socket: Socket = connect(Number(new URL(url).port), '127.0.0.1');
  let received = '';
  const opened = Date.now();
  socket.on('data', (d) => {
    received += d.toString();
  });
  const closedAfter = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - opened)));
  return {
    socket,
    closedAfter,
    /** The answers' status lines so far. */
    statuses: () => [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1])),
    received: () => received,
  };
}

const GET = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function answers(c: ReturnType<typeof rawConnection>, n: number): Promise<void> {
  for (let i = 0; i < 200 && c.statuses().length < n; i++) await sleep(10);
}

describe('keep-alive', () => {
  it('keeps an idle connection 65 s by default, longer than the 60 s of common proxies, and says so', async () => {
    const s = await startTestService();
    try {
      const c = rawConnection(s.url);
      c.socket.write(GET);
      await answers(c, 1);
      expect(c.statuses()).toEqual([200]);
      // Node's own default would say timeout=5.
      expect(c.received()).toMatch(/^Keep-Alive: timeout=65\r$/im);
      c.socket.destroy();
    } finally {
      await s.close();
    }
  });

  it('answers the next request on a connection idle for longer than HEADERS_TIMEOUT_MS, and closes it after KEEP_ALIVE_TIMEOUT_MS', async () => {
    const s = await startTestService({ env: { HEADERS_TIMEOUT_MS: '300', KEEP_ALIVE_TIMEOUT_MS: '2000' } });
    try {
      const c = rawConnection(s.url);
      c.socket.write(GET);
      await answers(c, 1);
      // Idle four head timeouts (and the server's checks of them, every 300 ms): the head timer is not running.
      await sleep(1200);
      const idleFrom = Date.now();
      c.socket.write(GET);
      await answers(c, 2);
      expect(c.statuses()).toEqual([200, 200]);
      const closed = await c.closedAfter;
      const idle = Date.now() - idleFrom;
      expect(closed).toBeGreaterThan(1200 + 2000 - 100);
      expect(idle).toBeGreaterThanOrEqual(2000 - 100);
      expect(idle).toBeLessThan(2000 + 1500);
    } finally {
      await s.close();
    }
  });

  it('still cuts a request head that trickles in on a kept-alive connection after HEADERS_TIMEOUT_MS', async () => {
    const s = await startTestService({ env: { HEADERS_TIMEOUT_MS: '300', KEEP_ALIVE_TIMEOUT_MS: '60000' } });
    try {
      const c = rawConnection(s.url);
      c.socket.write(GET);
      await answers(c, 1);
      await sleep(500);
      // A second head, begun and never finished: the long keep-alive does not shelter it.
      c.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
      const closed = await c.closedAfter;
      expect(c.statuses()).toEqual([200, 408]);
      expect(closed).toBeLessThan(5000);
    } finally {
      await s.close();
    }
  });
});
