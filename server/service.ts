import type { ConnectionOptions } from 'node:tls';
import type { Hono } from 'hono';
import { clientAddressVia } from '../api-kit/client-address.js';
import type { ApiDeps } from '../api-kit/deps.js';
import type { AddressAllocator } from '../core/addresses/types.js';
import { pruneAudit } from '../core/audit/audit-log.js';
import { shippedAssets } from '../core/catalog/assets.js';
import { createCatalog } from '../core/catalog/catalog.js';
import type { ChainsConfig } from '../core/chains/chains-config.js';
import { allocatorByFamily, configuredAssets, families, keyNetOf } from '../core/chains/families.js';
import { ChainRegistry } from '../core/chains/registry.js';
import { ChainWatchers } from '../core/chains/watchers.js';
import { type Clock, systemClock } from '../core/clock.js';
import { createLogger, type Logger } from '../core/log.js';
import { PUBLIC_URL_SETTING } from '../core/mail/customer-mails.js';
import { MailDispatcher } from '../core/mail/dispatcher.js';
import { rememberExplorerUrls } from '../core/mail/explorers.js';
import { pruneSentMail } from '../core/mail/retention.js';
import { MailTransport } from '../core/mail/transport.js';
import { KeyCache } from '../core/merchants/key-cache.js';
import { KeyUsage } from '../core/merchants/key-usage.js';
import { fiatCodes } from '../core/money/fiat.js';
import { startNotificationChecks } from '../core/notifications/scheduler.js';
import { backfillBalanceTotals } from '../core/payments/balance-totals.js';
import { PaymentChanges } from '../core/payments/changes.js';
import { startExpirySweeper } from '../core/payments/expiry.js';
import { startIdempotencyPurge } from '../core/payments/idempotency.js';
import { createCoinGeckoRates } from '../core/pricing/coingecko.js';
import { createFixedRates } from '../core/pricing/fixed-rates.js';
import { type Unlocked, unlockStore } from '../core/secrets/unlock.js';
import { migrate, openStore, type Store } from '../core/store/db.js';
import { loadPageSecret, putSetting } from '../core/store/settings.js';
import type { Resolver } from '../core/webhooks/address-guard.js';
import { WebhookDispatcher } from '../core/webhooks/dispatcher.js';
import { startRetention, startWebhookRetention } from '../core/webhooks/retention.js';
import { WebhookTransport } from '../core/webhooks/transport.js';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { createMetrics, type ServiceMetrics } from './metrics.js';

export interface ServiceOverrides {
  clock?: Clock;
  logger?: Logger;
  fetch?: typeof fetch;
  /** Live-mode address allocator; by default child 0/N of the merchant's key for the payment's chain. */
  liveAllocator?: AddressAllocator;
  /** Webhook host resolver (the SSRF guard checks what it returns, at connect time) and retry jitter source. */
  webhookResolver?: Resolver;
  webhookRandom?: () => number;
  /** TLS options of the SMTP relay connection (the tests' self-signed certificate). */
  mailTls?: ConnectionOptions;
}

export interface Service {
  config: Config;
  store: Store;
  /** The secrets key loaded at build, and whether this start created its file or sealed secrets in the clear. */
  secrets: Unlocked;
  deps: ApiDeps;
  app: Hono;
  watchers: ChainWatchers;
  /** Delivers the webhook outbox; started by start(), woken by payment changes. */
  webhooks: WebhookDispatcher;
  metrics: ServiceMetrics;
  /** Delivers the mail outbox through SMTP_URL; null without one (mail waits in the outbox). */
  mail: MailDispatcher | null;
  /** Starts the background work: chain watchers, webhook dispatch, expiry sweep, sandbox blocks, housekeeping. */
  start(): void;
  /**
   * Stops the background work: watchers at a checkpoint, webhook attempts in flight recorded or, after
   * `webhookGraceMs`, handed back; then closes the store.
   */
  stop(opts?: { webhookGraceMs?: number }): Promise<void>;
}

/**
 * Builds the whole service once from configuration: store, catalog, prices, chains and watchers, webhook dispatch
 * and the HTTP app. Nothing runs until `start()`, so tests can drive time and chains by hand.
 */
export async function buildService(config: Config, o: ServiceOverrides = {}): Promise<Service> {
  const clock = o.clock ?? systemClock;
  const logger = o.logger ?? createLogger(config.LOG_LEVEL);
  const store = openStore(config.DATABASE_URL, {
    onPoolError: (e) => logger.warn('database connection lost; reconnecting on next query', { error: e.message }),
  });
  await migrate(store);
  const secrets = await unlockStore(store, config, config.DATABASE_URL).catch(async (e) => {
    await store.close();
    throw e;
  });
  // Configured live networks bring their own chain ids and token contracts (a testnet, a local node).
  const liveNetworks: ChainsConfig = {
    evm: config.EVM_NETWORKS,
    utxo: config.UTXO_NETWORKS,
    monero: config.MONERO_NETWORK,
  };
  const catalog = createCatalog(configuredAssets(shippedAssets, liveNetworks), {
    minUsd: config.MIN_AMOUNTS_USD,
  });
  const chains = new ChainRegistry(store.db);
  const changes = new PaymentChanges();
  const watchers = new ChainWatchers({ db: store.db, clock, logger, chains, changes });
  // Each family brings its chain sources, allocators and background work from the same context.
  const built = families.map((family) => ({
    family,
    parts: family.build({
      db: store.db,
      clock,
      logger,
      chains,
      watchers,
      networks: liveNetworks,
      catalogNetworks: [...new Set(catalog.list().map((a) => a.network))],
      blockIntervalMs: config.SANDBOX_BLOCK_INTERVAL_MS,
      gap: { limit: config.UTXO_GAP_LIMIT, pastLimitPerMinute: config.UTXO_PAST_GAP_PER_MINUTE },
    }),
  }));
  for (const { parts } of built) for (const source of parts.sources) watchers.add(source);
  const sweepers = built.flatMap(({ parts }) => parts.sweepers ?? []);
  const testAllocator = built.find(({ parts }) => parts.testAllocator)?.parts.testAllocator;
  if (!testAllocator) throw new Error('no chain family provides the test mode allocator');
  const liveAllocator =
    o.liveAllocator ??
    allocatorByFamily(built.map(({ family, parts }) => ({ family, allocator: parts.liveAllocator })));
  // A store from before balance totals (migration 0010) gets them once, now that the chains' rules are known.
  await backfillBalanceTotals({ db: store.db, chains, clock });

  const liveRates = createCoinGeckoRates({
    baseUrl: config.RATES_BASE_URL,
    ...(config.RATES_API_KEY ? { apiKey: config.RATES_API_KEY } : {}),
    ...(config.RATES_API_KEY_HEADER ? { apiKeyHeader: config.RATES_API_KEY_HEADER } : {}),
    fetch: o.fetch ?? globalThis.fetch,
    clock,
    logger,
    refreshMs: config.RATES_REFRESH_SECONDS * 1000,
    staleAfterMs: config.RATES_STALE_SECONDS * 1000,
    cgIds: [...new Set(catalog.list().map((a) => a.cgId))],
    // Any listed currency may price the next payment, and one request carries them all.
    vsCurrencies: fiatCodes,
  });

  const metrics = createMetrics({ store, clock, changes, watchers, sweepers, rates: liveRates });
  const webhookTransport = new WebhookTransport({
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    ...(o.webhookResolver ? { resolver: o.webhookResolver } : {}),
  });
  const webhooks = new WebhookDispatcher(
    { db: store.db, dialect: store.dialect, clock, logger, changes, onOutcome: metrics.onWebhookOutcome },
    webhookTransport,
    {
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      pollMs: config.WEBHOOK_POLL_MS,
      perEndpoint: config.WEBHOOK_CONCURRENCY_PER_ENDPOINT,
      ...(o.webhookRandom ? { random: o.webhookRandom } : {}),
    },
  );

  const mailTransport =
    config.SMTP_URL && config.MAIL_FROM
      ? new MailTransport({
          url: config.SMTP_URL,
          from: config.MAIL_FROM,
          timeoutMs: config.MAIL_TIMEOUT_MS,
          maxConnections: Math.min(config.MAIL_CONCURRENCY, 5),
          ...(o.mailTls ? { tls: o.mailTls } : {}),
        })
      : null;
  const mail = mailTransport
    ? new MailDispatcher(
        { db: store.db, dialect: store.dialect, clock, logger, changes, onOutcome: metrics.onMailOutcome },
        mailTransport,
        {
          concurrency: config.MAIL_CONCURRENCY,
          // Connect, greet, TLS, AUTH and the message's commands each have the budget; plus a margin.
          leaseMs: 5 * config.MAIL_TIMEOUT_MS + 5_000,
          pollMs: config.MAIL_POLL_MS,
        },
      )
    : null;

  const deps: ApiDeps = {
    db: store.db,
    dialect: store.dialect,
    clock,
    logger,
    catalog,
    chains,
    changes,
    keys: new KeyCache(clock, config.KEY_CACHE_MS),
    keyUsage: new KeyUsage(store.db, clock, logger),
    rates: { test: createFixedRates(clock), live: liveRates },
    allocators: { test: testAllocator, live: liveAllocator },
    settings: {
      publicUrl: config.PUBLIC_URL,
      ttlSeconds: config.PAYMENT_TTL_SECONDS,
      graceSeconds: config.PAYMENT_GRACE_SECONDS,
      pageSecret: await loadPageSecret(store.db),
      notifyDigestHour: config.NOTIFY_DIGEST_HOUR,
    },
    limits: { bodyBytes: config.BODY_LIMIT_BYTES, ratePerSecond: config.RATE_LIMIT_PER_SECOND },
    clientAddress: clientAddressVia(config.TRUST_PROXY),
    watchers,
    webhooks,
    mail: { wake: () => mail?.wake(), relay: mail !== null },
    sweepers,
    utxoNetOf: keyNetOf(config.UTXO_NETWORKS),
  };
  // Customer mails are written inside payment changes, where only the store is at hand: their links' base lives there.
  await putSetting(store.db, PUBLIC_URL_SETTING, config.PUBLIC_URL);
  await rememberExplorerUrls(store.db, chains.all());
  const app = createApp(deps, { watchers, metrics: { metrics, token: config.METRICS_TOKEN, host: config.HOST } });
  const stops: (() => void | Promise<void>)[] = [];

  return {
    config,
    store,
    secrets,
    deps,
    app,
    watchers,
    webhooks,
    metrics,
    mail,
    start() {
      webhooks.start();
      if (mail) mail.start();
      else logger.info('no SMTP_URL: mail stays in the outbox, owners read it in the dashboard');
      stops.push(
        startRetention(deps, 'sent mail', config.MAIL_RETENTION_DAYS, (before) => pruneSentMail(deps.db, before)),
      );
      watchers.start();
      stops.push(() => watchers.stop());
      for (const s of sweepers) {
        s.start();
        stops.push(() => s.stop());
      }
      stops.push(startExpirySweeper(deps, config.EXPIRY_SWEEP_MS));
      stops.push(
        startNotificationChecks(
          { db: deps.db, clock, logger, rates: () => liveRates.status(), wakeMail: () => mail?.wake() },
          { digestHour: config.NOTIFY_DIGEST_HOUR, intervalMs: config.NOTIFY_CHECK_MS },
        ),
      );
      stops.push(startIdempotencyPurge(deps));
      stops.push(startWebhookRetention(deps, config.WEBHOOK_RETENTION_DAYS));
      stops.push(
        startRetention(deps, 'audit log entries', config.AUDIT_RETENTION_DAYS, (before) => pruneAudit(deps.db, before)),
      );
      if (families.some((f) => f.isLive(liveNetworks))) {
        liveRates.start();
        stops.push(() => liveRates.stop());
      }
      for (const { parts } of built) {
        const stop = parts.start?.();
        if (stop) stops.push(stop);
      }
    },
    async stop(opts = {}) {
      await Promise.all(stops.splice(0).map((s) => s()));
      await deps.keyUsage.flush();
      await webhooks.stop(opts.webhookGraceMs);
      await mail?.stop(opts.webhookGraceMs);
      webhookTransport.close();
      mailTransport?.close();
      await store.close();
    },
  };
}
