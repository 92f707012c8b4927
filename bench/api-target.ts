/**
 * A benchmark target, run in its own process so the load generator never shares its CPU time.
 * TARGET=ceiling: a bare Hono JSON route served exactly like the service (the ceiling).
 * TARGET=service: the real service on DATABASE_URL with one test merchant and one payment to read.
 * Prints one line `READY {json}` when listening.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createMerchant } from '../core/merchants/merchants.js';
import { loadConfig } from '../server/config.js';
import { buildService } from '../server/service.js';

async function main(): Promise<void> {
  if (process.env.TARGET === 'ceiling') {
    const app = new Hono();
    app.get('/json', (c) =>
      c.json({ success: true, message: 'OK', data: { payment_id: 'pay_x', payment_status: 'waiting' } }),
    );
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => {
      process.stdout.write(`READY ${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
    });
    return;
  }
  const config = loadConfig({ ...process.env, RATE_LIMIT_PER_SECOND: '0', LOG_LEVEL: 'silent', PORT: '0' });
  const service = await buildService(config);
  const m = await createMerchant(service.deps.db, service.deps.clock, { name: 'Bench', mode: 'test' });
  service.start();
  const server = serve({ fetch: service.app.fetch, hostname: '127.0.0.1', port: 0 }, async () => {
    const port = (server.address() as AddressInfo).port;
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/payments`, {
      method: 'POST',
      headers: { 'x-api-key': m.secret_key, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 100, currency: 'btc', email: 'bench@example.com' }),
    });
    const body = (await res.json()) as { data: { payment: { payment_id: string } } };
    process.stdout.write(
      `READY ${JSON.stringify({ port, key: m.secret_key, paymentId: body.data.payment.payment_id })}\n`,
    );
  });
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});

// A clean exit on SIGTERM lets `--cpu-prof` write its profile when a benchmark stops the target.
process.once('SIGTERM', () => process.exit(0));
