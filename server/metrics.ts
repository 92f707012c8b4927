import { timingSafeEqual } from 'node:crypto';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Sweeper } from '../core/chains/family.js';
import type { ChainWatchers } from '../core/chains/watchers.js';
import type { Clock } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import { mailBacklog } from '../core/mail/leases.js';
import type { SendOutcome } from '../core/mail/transport.js';
import type { PaymentChanges } from '../core/payments/changes.js';
import type { RatesStatus } from '../core/pricing/types.js';
import type { Store } from '../core/store/db.js';
import { pendingBacklog } from '../core/webhooks/deliveries.js';
import type { Outcome } from '../core/webhooks/leases.js';

/**
 * The service's Prometheus metrics (`prom-client`), one registry per service: HTTP requests by route and status with
 * latency, payments created and their status changes, webhook attempts by outcome, the outbox backlog, chain
 * watcher lag and errors, and the store's connection pool. Counters count this process; gauges read the store or
 * the watchers at scrape time.
 */
export interface ServiceMetrics {
  registry: Registry;
  /** Times every request and counts it by route pattern (never the raw path: ids would explode the series). */
  middleware: MiddlewareHandler;
  onWebhookOutcome(kind: Outcome['kind']): void;
  onMailOutcome(kind: SendOutcome['kind']): void;
}

export function createMetrics(deps: {
  store: Store;
  clock: Clock;
  changes: PaymentChanges;
  watchers: ChainWatchers;
  sweepers: readonly Sweeper[];
  /** The live price source's state (core/pricing/coingecko.ts). */
  rates: { status(): RatesStatus };
}): ServiceMetrics {
  const registry = new Registry();
  const requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by route pattern, method and status, with their duration',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  const created = new Counter({
    name: 'payments_created_total',
    help: 'Payments created by this process',
    registers: [registry],
  });
  const statusChanges = new Counter({
    name: 'payment_status_changes_total',
    help: 'Payment changes written by this process, by the status they left the payment in',
    labelNames: ['status'] as const,
    registers: [registry],
  });
  const webhookAttempts = new Counter({
    name: 'webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome (succeeded, retry, failed, gone)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'webhook_pending_deliveries',
    help: 'Webhook deliveries waiting to be delivered (all processes)',
    registers: [registry],
    async collect() {
      this.set((await pendingBacklog(deps.store.db)).count);
    },
  });
  // Its own read: prom-client collects the gauges of one scrape concurrently.
  new Gauge({
    name: 'webhook_pending_oldest_age_seconds',
    help: 'Age of the oldest pending webhook delivery (0 when none)',
    registers: [registry],
    async collect() {
      const { oldestCreatedAt } = await pendingBacklog(deps.store.db);
      this.set(oldestCreatedAt === null ? 0 : Math.max(0, deps.clock.now() - oldestCreatedAt) / 1000);
    },
  });
  const mailAttempts = new Counter({
    name: 'mail_attempts_total',
    help: 'Mails handed to the SMTP relay by outcome (sent, retry, failed)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'mail_pending',
    help: 'Mails waiting in the outbox (all processes; all of them while no SMTP relay is configured)',
    registers: [registry],
    async collect() {
      this.set((await mailBacklog(deps.store.db)).count);
    },
  });
  new Gauge({
    name: 'chain_head_lag_blocks',
    help: "Blocks between the node's head and the height the watcher processed, per chain",
    labelNames: ['chain'] as const,
    registers: [registry],
    collect() {
      for (const w of deps.watchers.all()) {
        const { nodeHead, processed } = w.health;
        if (nodeHead !== null && processed !== null)
          this.set({ chain: w.source.key }, Math.max(0, nodeHead - processed));
      }
    },
  });
  new Gauge({
    name: 'chain_rpc_errors',
    help: 'Failed polls of a chain source (node unreachable, RPC error) since start, per chain',
    labelNames: ['chain'] as const,
    registers: [registry],
    collect() {
      for (const w of deps.watchers.all()) this.set({ chain: w.source.key }, w.health.errors);
    },
  });
  // The same states /readyz reports, for alerting: /readyz stays 200 while a chain is down (server/readiness.ts).
  new Gauge({
    name: 'chain_up',
    help: 'Whether a live chain is followed (1: its last poll succeeded or it lags its node; 0: unreachable or starting)',
    labelNames: ['chain'] as const,
    registers: [registry],
    collect() {
      for (const w of deps.watchers.all()) {
        if (w.source.mode !== 'live') continue;
        const p = w.health.lastPoll;
        this.set({ chain: w.source.key }, p === 'ok' || p === 'lagging' ? 1 : 0);
      }
    },
  });
  new Gauge({
    name: 'rates_stale',
    help: 'Live USD prices (CoinGecko ids) missing or older than RATES_STALE_SECONDS: their count (0 while fresh)',
    registers: [registry],
    collect() {
      this.set(deps.rates.status().stale_ids.length);
    },
  });
  new Gauge({
    name: 'rates_age_seconds',
    help: 'Age of the oldest live USD price in use (0 before any)',
    registers: [registry],
    collect() {
      const at = deps.rates.status().updated_at;
      this.set(at === null ? 0 : Math.max(0, deps.clock.now() - Date.parse(at)) / 1000);
    },
  });
  // Read from each sweeper's last pass (every sweepIntervalMs): a scrape asks no node.
  new Gauge({
    name: 'evm_relayer_balance_wei',
    help: "The relayer account's native balance per EVM network, in wei, as of the sweeper's last pass",
    labelNames: ['network'] as const,
    registers: [registry],
    collect() {
      for (const s of deps.sweepers) {
        const b = s.status().relayerBalanceWei;
        if (b !== null) this.set({ network: s.network }, Number(b));
      }
    },
  });
  new Gauge({
    name: 'forwarder_unswept',
    help: 'Forwarders holding confirmed deposits no flush has covered yet, per EVM network',
    labelNames: ['network'] as const,
    registers: [registry],
    collect() {
      for (const s of deps.sweepers) this.set({ network: s.network }, s.status().unswept.forwarders);
    },
  });
  new Gauge({
    name: 'forwarder_unswept_units',
    help: 'Base units (wei, token units) in unswept forwarders, per EVM network and asset',
    labelNames: ['network', 'asset'] as const,
    registers: [registry],
    collect() {
      for (const s of deps.sweepers)
        for (const [asset, units] of s.status().unswept.units) this.set({ network: s.network, asset }, Number(units));
    },
  });
  new Gauge({
    name: 'store_pool_connections',
    help: 'Store connections by state (max, open, idle, in use) and queries waiting for one',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const u = deps.store.poolUsage();
      this.set({ state: 'max' }, u.max);
      this.set({ state: 'open' }, u.total);
      this.set({ state: 'idle' }, u.idle);
      this.set({ state: 'in_use' }, u.total - u.idle);
      this.set({ state: 'waiting' }, u.waiting);
    },
  });

  deps.changes.subscribe((changes) => {
    for (const c of changes) {
      if (c.kind === 'created') created.inc();
      if (c.kind === 'created' || c.kind === 'state') statusChanges.inc({ status: c.payment.status });
    }
  });

  return {
    registry,
    middleware: async (c, next) => {
      const end = requests.startTimer();
      try {
        await next();
      } finally {
        end({ method: c.req.method, route: routeOf(c), status: String(c.res.status) });
      }
    },
    onWebhookOutcome: (kind) => webhookAttempts.inc({ outcome: kind }),
    onMailOutcome: (kind) => mailAttempts.inc({ outcome: kind }),
  };
}

/** The pattern that served a request: its handler's route, a 405's path, or `unmatched` (404s of unknown paths). */
function routeOf(c: Context): string {
  const routes = matchedRoutes(c);
  const handler = routes.find((r) => r.method !== 'ALL');
  if (handler) return handler.path;
  return routes.findLast((r) => !r.path.endsWith('*'))?.path ?? 'unmatched';
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * GET /metrics in the Prometheus text format. With METRICS_TOKEN set it needs `Authorization: Bearer <token>`;
 * without, it answers only when the service listens on loopback (where only this machine can scrape it), and is a
 * 404 like any unknown path otherwise: metrics are never public by accident.
 */
export function registerMetricsRoute(
  app: Hono,
  metrics: ServiceMetrics,
  access: { token: string | undefined; host: string },
): void {
  if (!access.token && !LOOPBACK.has(access.host)) return;
  const expected = access.token ? Buffer.from(`Bearer ${access.token}`) : null;
  app.get('/metrics', async (c) => {
    if (expected) {
      const given = Buffer.from(c.req.header('authorization') ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        throw new AppError('UNAUTHORIZED', 'Send Authorization: Bearer <METRICS_TOKEN>');
    }
    return c.body(await metrics.registry.metrics(), 200, {
      'content-type': metrics.registry.contentType,
      'cache-control': 'no-store',
    });
  });
}
