import { EventEmitter } from 'node:events';
import type { Hono } from 'hono';
import type { ApiDeps } from '../api-kit/deps.js';
import { hdAllocator } from '../core/addresses/hd-allocator.js';
import { sandboxAllocator } from '../core/addresses/sandbox-allocator.js';
import type { AddressAllocator } from '../core/addresses/types.js';
import { shippedAssets } from '../core/catalog/assets.js';
import { createCatalog } from '../core/catalog/catalog.js';
import { applyChainsConfig } from '../core/chains/evm/config.js';
import { EvmChain } from '../core/chains/evm/evm-chain.js';
import { startHealthChecks } from '../core/chains/evm/health.js';
import { ChainRegistry } from '../core/chains/registry.js';
import { SandboxChain, sandboxMine, sandboxNeedsBlocks } from '../core/chains/sandbox.js';
import { ChainWatcher } from '../core/chains/watcher.js';
import { type Clock, systemClock } from '../core/clock.js';
import { toError } from '../core/errors.js';
import { createLogger, type Logger } from '../core/log.js';
import { startExpirySweeper } from '../core/payments/expiry.js';
import type { Payment } from '../core/payments/payment.js';
import { createCoinGeckoRates } from '../core/pricing/coingecko.js';
import { createFixedRates } from '../core/pricing/fixed-rates.js';
import { migrate, openStore, type Store } from '../core/store/db.js';
import { ReadCache } from '../core/store/read-cache.js';
import type { Resolver } from '../core/webhooks/address-guard.js';
import { WebhookDispatcher } from '../core/webhooks/dispatcher.js';
import { WebhookTransport } from '../core/webhooks/transport.js';
import { mountDropin } from '../dropin-api/mount.js';
import { loadPageSecret } from '../dropin-api/settings.js';
import { purgeIdempotencyKeys } from '../merchant-api/idempotency.js';
import { webhookDeliveryRoutes } from '../merchant-api/routes/webhook-deliveries.js';
import { type AppOptions, createApp } from './app.js';
import type { Config } from './config.js';

/** Bounds of the read caches: a payment row and its JSON text weigh about 3 KB, so at most ~30 MB. */
const KEY_CACHE_ENTRIES = 1_000;
const PAYMENT_CACHE_ENTRIES = 10_000;

export interface ServiceOverrides {
  clock?: Clock;
  logger?: Logger;
  fetch?: typeof fetch;
  /** Live-mode address allocator (xpub derivation) once a live chain family is configured. */
  liveAllocator?: AddressAllocator;
  app?: AppOptions;
  /** Webhook host resolver (the SSRF guard checks what it returns, at connect time) and retry jitter source. */
  webhookResolver?: Resolver;
  webhookRandom?: () => number;
}

export interface Service {
  config: Config;
  store: Store;
  deps: ApiDeps;
  app: Hono;
  /** Emits 'changed' with Payment[] after every committed payment change. */
  changes: EventEmitter;
  watchers: Map<string, ChainWatcher>;
  /** Delivers the webhook outbox; started by start(), woken by `changes`. */
  webhooks: WebhookDispatcher;
  /** Starts background work: watchers, expiry sweep, sandbox block timer, housekeeping. */
  start(): void;
  stop(): Promise<void>;
}

/** Builds the whole service once from configuration: store, catalog, prices, chains, watchers and the HTTP app. */
export async function buildService(config: Config, o: ServiceOverrides = {}): Promise<Service> {
  const clock = o.clock ?? systemClock;
  const logger = o.logger ?? createLogger(config.LOG_LEVEL);
  const store = openStore(config.DATABASE_URL, {
    onPoolError: (e) => logger.warn('database connection lost; reconnecting on next query', { error: e.message }),
  });
  await migrate(store);
  // Read caches trust nothing until other processes' writes are seen (PostgreSQL: a LISTEN connection).
  await store.watchOtherProcesses((e) =>
    logger.warn('store change listener lost; read caches off until it reconnects', { error: e.message }),
  );
  // Configured live networks bring their own chain ids and token contracts (a testnet, a local node).
  const catalog = createCatalog(applyChainsConfig(shippedAssets, config.EVM_NETWORKS), {
    minUsd: config.MIN_AMOUNTS_USD,
  });
  const chains = new ChainRegistry(store.db);
  const changes = new EventEmitter();
  changes.setMaxListeners(0);
  const notifyChanged = (payments: Payment[]) => {
    if (payments.length > 0) changes.emit('changed', payments);
  };

  const networks = [...new Set(catalog.list().map((a) => a.network))];
  const watchers = new Map<string, ChainWatcher>();
  for (const n of networks) {
    const source = new SandboxChain(store.db, n);
    chains.add(source);
    watchers.set(
      source.key,
      new ChainWatcher({ db: store.db, clock, logger, chains, onChanged: notifyChanged }, source),
    );
  }
  // The stored checkpoint tells a restarted watcher how far the chain had got, so a lagging node is waited for.
  const evmChains = config.EVM_NETWORKS.map(
    (n) => new EvmChain(n, { checkpointHeight: () => chains.headOf(`live:${n.network}`) }),
  );
  for (const source of evmChains) {
    chains.add(source);
    // Not payable until the first health check has reached the node.
    chains.setReachable(source.key, false);
    watchers.set(
      source.key,
      new ChainWatcher({ db: store.db, clock, logger, chains, onChanged: notifyChanged }, source),
    );
  }

  const liveRates = createCoinGeckoRates({
    baseUrl: config.RATES_BASE_URL,
    ...(config.RATES_API_KEY ? { apiKey: config.RATES_API_KEY } : {}),
    fetch: o.fetch ?? globalThis.fetch,
    clock,
    logger,
    refreshMs: config.RATES_REFRESH_SECONDS * 1000,
    staleAfterMs: config.RATES_STALE_SECONDS * 1000,
    cgIds: [...new Set(catalog.list().map((a) => a.cgId))],
  });

  const deps: ApiDeps = {
    db: store.db,
    dialect: store.dialect,
    clock,
    logger,
    catalog,
    chains,
    rates: { test: createFixedRates(clock), live: liveRates },
    allocators: { test: sandboxAllocator, live: o.liveAllocator ?? hdAllocator },
    caches: {
      keys: new ReadCache(store.changes, ['api_keys', 'merchants'], KEY_CACHE_ENTRIES),
      payments: new ReadCache(store.changes, ['payments'], PAYMENT_CACHE_ENTRIES),
    },
    settings: {
      publicUrl: config.PUBLIC_URL,
      ttlSeconds: config.PAYMENT_TTL_SECONDS,
      graceSeconds: config.PAYMENT_GRACE_SECONDS,
      pageSecret: await loadPageSecret(store.db),
    },
    limits: { bodyBytes: config.BODY_LIMIT_BYTES, ratePerSecond: config.RATE_LIMIT_PER_SECOND },
    syncChain: async (key) => {
      await watchers.get(key)?.sync();
    },
    notifyChanged,
  };

  const webhookTransport = new WebhookTransport({
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    ...(o.webhookResolver ? { resolver: o.webhookResolver } : {}),
  });
  const webhooks = new WebhookDispatcher({ db: store.db, dialect: store.dialect, clock, logger }, webhookTransport, {
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    pollMs: config.WEBHOOK_POLL_MS,
    perEndpoint: config.WEBHOOK_CONCURRENCY_PER_ENDPOINT,
    ...(o.webhookRandom ? { random: o.webhookRandom } : {}),
  });

  // The drop-in API, hosted page, demo and static files; live status streams follow `changes`.
  const app = createApp(deps, {
    ...o.app,
    merchantRoutes: [...(o.app?.merchantRoutes ?? []), webhookDeliveryRoutes(deps, webhooks)],
    mount: (a) => {
      mountDropin(a, deps, changes);
      o.app?.mount?.(a);
    },
  });
  const stops: (() => void)[] = [];

  return {
    config,
    store,
    deps,
    app,
    changes,
    watchers,
    webhooks,
    start() {
      // Every committed change wakes the dispatcher at once; its own poll catches what other processes wrote.
      const wakeWebhooks = () => webhooks.wake();
      changes.on('changed', wakeWebhooks);
      stops.push(() => changes.off('changed', wakeWebhooks));
      webhooks.start();
      for (const w of watchers.values()) {
        // Sandbox chains move only through our own routes and timer, which sync at once; a slow poll is a safety net.
        w.start(w.source instanceof EvmChain ? w.source.pollIntervalMs : w.source.mode === 'test' ? 5_000 : 1_000);
        stops.push(() => w.stop());
      }
      stops.push(startExpirySweeper(deps, config.EXPIRY_SWEEP_MS, notifyChanged));
      if (evmChains.length > 0)
        stops.push(startHealthChecks(chains, evmChains, logger, { intervalMs: config.CHAIN_HEALTH_MS }));
      const hasLive = chains.all().some((s) => s.mode === 'live');
      if (hasLive) {
        liveRates.start();
        stops.push(() => liveRates.stop());
      }
      if (config.SANDBOX_BLOCK_INTERVAL_MS > 0) {
        const t = setInterval(async () => {
          for (const n of networks) {
            try {
              if (await sandboxNeedsBlocks(store.db, n)) {
                await sandboxMine(store.db, clock, n, 1);
                await watchers.get(`sandbox:${n}`)?.sync();
              }
            } catch (e) {
              logger.warn('sandbox block timer failed', { network: n, error: toError(e).message });
            }
          }
        }, config.SANDBOX_BLOCK_INTERVAL_MS);
        t.unref();
        stops.push(() => clearInterval(t));
      }
      const housekeeping = setInterval(
        () => {
          purgeIdempotencyKeys(store.db, clock.now()).catch((e) =>
            logger.warn('idempotency purge failed', { error: toError(e).message }),
          );
        },
        60 * 60 * 1000,
      );
      housekeeping.unref();
      stops.push(() => clearInterval(housekeeping));
    },
    async stop() {
      for (const s of stops.splice(0)) s();
      await webhooks.stop();
      webhookTransport.close();
      await store.close();
    },
  };
}
