/**
 * Webhook benchmark target: the real service on DATABASE_URL in its own process, with one test merchant whose
 * webhook URL is RECEIVER_URL. Prints `READY {json}` when listening.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createMerchant } from '../core/merchants/merchants.js';
import { loadConfig } from '../server/config.js';
import { buildService } from '../server/service.js';

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, RATE_LIMIT_PER_SECOND: '0', LOG_LEVEL: 'silent', PORT: '0' });
  const service = await buildService(config);
  const m = await createMerchant(service.deps.db, service.deps.clock, {
    name: 'Bench',
    mode: 'test',
    webhookUrl: process.env.RECEIVER_URL ?? null,
  });
  service.start();
  const server = serve({ fetch: service.app.fetch, hostname: '127.0.0.1', port: 0 }, () => {
    const port = (server.address() as AddressInfo).port;
    process.stdout.write(
      `READY ${JSON.stringify({ port, key: m.secret_key, secret: m.webhook_secret, merchantId: m.merchant_id })}\n`,
    );
  });
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});

process.once('SIGTERM', () => process.exit(0));
