/**
 * Benchmark target for bench/evm.ts and bench/bitcoin.ts: the real service in its own process with live networks from
 * CHAINS_CONFIG, on a store the benchmark has already filled (a live merchant with a key, many open payments). It
 * measures the watcher of `WATCH_NETWORK` (default eth: CPU per sync, blocks advanced) and when each payment became
 * confirming and finished, and serves those figures on a second port. Prints `READY {json}` when the network is
 * reachable.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { loadConfig } from '../server/config.js';
import { buildService } from '../server/service.js';

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, RATE_LIMIT_PER_SECOND: '0', LOG_LEVEL: 'silent', PORT: '0' });
  const service = await buildService(config);
  const key = String(process.env.MERCHANT_KEY);

  // Instrument the live watcher: CPU (user + system) of each sync, and how many blocks it moved the checkpoint.
  const stats = { syncs: 0, busySyncs: 0, cpuUs: 0, busyCpuUs: 0, wallMs: 0, busyWallMs: 0, blocks: 0 };
  const finishedAt: Record<string, number> = {};
  const confirmingAt: Record<string, number> = {};
  const network = process.env.WATCH_NETWORK ?? 'eth';
  const chain = `live:${network}`;
  const watcher = service.watchers.get(chain);
  if (!watcher) throw new Error(`${chain} is not configured`);
  const sync = watcher.sync.bind(watcher);
  watcher.sync = async () => {
    const before = (await service.deps.chains.headOf(chain)) ?? 0;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    try {
      await sync();
    } finally {
      const c = process.cpuUsage(c0);
      const cpu = c.user + c.system;
      const wall = performance.now() - t0;
      const moved = ((await service.deps.chains.headOf(chain)) ?? 0) - before;
      stats.syncs += 1;
      stats.cpuUs += cpu;
      stats.wallMs += wall;
      if (moved > 0) {
        stats.busySyncs += 1;
        stats.busyCpuUs += cpu;
        stats.busyWallMs += wall;
        stats.blocks += moved;
      }
    }
  };
  service.deps.changes.subscribe((changes) => {
    const t = Date.now();
    for (const { payment: p } of changes) {
      if (p.status === 'finished' && finishedAt[p.id] === undefined) finishedAt[p.id] = t;
      if (p.status === 'confirming' && confirmingAt[p.id] === undefined) confirmingAt[p.id] = t;
    }
  });
  service.start();

  const statsServer = createServer((req, res) => {
    if (req.url === '/reset') for (const k of Object.keys(stats) as (keyof typeof stats)[]) stats[k] = 0;
    const m = process.memoryUsage();
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ ...stats, rss: m.rss, heapUsed: m.heapUsed, finishedAt, confirmingAt }));
  });
  await new Promise<void>((r) => statsServer.listen(0, '127.0.0.1', () => r()));
  while (!service.deps.chains.isEnabled('live', network)) await new Promise((r) => setTimeout(r, 50));
  const server = serve({ fetch: service.app.fetch, hostname: '127.0.0.1', port: 0 }, () => {
    const port = (server.address() as AddressInfo).port;
    const statsPort = (statsServer.address() as AddressInfo).port;
    process.stdout.write(`READY ${JSON.stringify({ port, statsPort, key })}\n`);
  });
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});

process.once('SIGTERM', () => process.exit(0));
