import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import { toError } from '../errors.js';
import type { Logger } from '../log.js';
import { pruneFinished } from '../outbox/leases.js';
import type { Database } from '../store/schema.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes delivered (succeeded) webhook deliveries, and their attempts, delivered before `before`, in batches of
 * `batchSize` rows, one short transaction per batch so the writer is never held for long (SQLite has one). Pending
 * and failed deliveries stay (a failed one can still be redelivered), and payments, deposits and payment events are
 * never touched: the delivery log forgets, the payment history does not. Returns how many deliveries went.
 */
export function pruneDeliveredWebhooks(
  db: Kysely<Database>,
  before: number,
  opts: { batchSize?: number; pauseMs?: number } = {},
): Promise<number> {
  return pruneFinished(db, 'webhook_deliveries', before, { ...opts, pauseMs: opts.pauseMs ?? 20 });
}

/**
 * Runs `prune(before)` at start and every hour with `before` = now - `retentionDays`: the one schedule of every
 * age-based retention of the store (delivered webhooks here, the audit log in core/audit). Returns the function
 * that stops it.
 */
export function startRetention(
  deps: { clock: Clock; logger: Logger },
  what: string,
  retentionDays: number,
  prune: (before: number) => Promise<number>,
): () => void {
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    prune(deps.clock.now() - retentionDays * DAY_MS)
      .then((n) => {
        if (n > 0) deps.logger.info(`pruned ${what}`, { count: n, retention_days: retentionDays });
      })
      .catch((e) => deps.logger.warn(`${what} retention failed`, { error: toError(e).message }))
      .finally(() => {
        running = false;
      });
  };
  const t = setInterval(run, 60 * 60 * 1000);
  t.unref();
  const first = setTimeout(run, 1000);
  first.unref();
  return () => {
    clearInterval(t);
    clearTimeout(first);
  };
}

/** Prunes deliveries older than `retentionDays` at start and every hour. Returns the function that stops it. */
export function startWebhookRetention(
  deps: { db: Kysely<Database>; clock: Clock; logger: Logger },
  retentionDays: number,
): () => void {
  return startRetention(deps, 'delivered webhook deliveries', retentionDays, (before) =>
    pruneDeliveredWebhooks(deps.db, before),
  );
}
