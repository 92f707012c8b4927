import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import { toError } from '../errors.js';
import { newId } from '../ids.js';
import type { Logger } from '../log.js';
import type { Database } from '../store/schema.js';
import { type AttemptRecord, type Claimed, claimDue, nextDueAt, type Outcome, recordAttempts } from './leases.js';
import { parseRetryAfter, retryDelayMs } from './schedule.js';
import { webhookHeaders } from './sign.js';
import type { PostResult, WebhookTransport } from './transport.js';

export interface DispatcherOptions {
  /** Per-request budget; also bounds how long a lease must outlive an attempt. @default 10000 */
  timeoutMs?: number;
  /** How long a claimed delivery stays ours; a crashed holder's rows are retried after this. @default timeoutMs + 5000 */
  leaseMs?: number;
  /** Fallback poll: picks up rows of crashed processes, other processes' writes and due retries. @default 1000 */
  pollMs?: number;
  /** Requests in flight to one endpoint: a slow endpoint holds at most this many slots. @default 16 */
  perEndpoint?: number;
  /** Requests in flight in this process. @default 256 */
  maxInFlight?: number;
  /** Source of jitter in [0, 1). @default Math.random */
  random?: () => number;
  /** Lease owner name of this process. @default a random id */
  owner?: string;
}

export interface DispatcherDeps {
  db: Kysely<Database>;
  dialect: 'sqlite' | 'postgres';
  clock: Clock;
  logger: Logger;
}

type Endpoint = { url: string | null; secret: string; mode: 'test' | 'live' };

/**
 * Delivers outbox rows. Woken by payment changes (no polling delay on the hot path), plus a fallback poll.
 * Everything that matters lives in the table: leases make several processes safe on PostgreSQL, and a SIGKILL
 * loses nothing (an attempt in flight is retried, with the same delivery id, once its lease runs out).
 */
export class WebhookDispatcher {
  readonly owner: string;
  private readonly o: Required<Omit<DispatcherOptions, 'owner'>>;
  private inFlight = 0;
  private readonly perMerchant = new Map<string, number>();
  private pumping = false;
  private again = false;
  private wakeQueued = false;
  private stopped = true;
  private poll: NodeJS.Timeout | undefined;
  private dueTimer: NodeJS.Timeout | undefined;
  private buffer: AttemptRecord[] = [];
  private flushing: Promise<void> | null = null;
  private readonly idleWaiters: (() => void)[] = [];

  constructor(
    private readonly deps: DispatcherDeps,
    private readonly transport: WebhookTransport,
    opts: DispatcherOptions = {},
  ) {
    const timeoutMs = opts.timeoutMs ?? 10_000;
    this.owner = opts.owner ?? newId('wrk', 12);
    this.o = {
      timeoutMs,
      leaseMs: opts.leaseMs ?? timeoutMs + 5_000,
      pollMs: opts.pollMs ?? 1_000,
      perEndpoint: opts.perEndpoint ?? 16,
      maxInFlight: opts.maxInFlight ?? 256,
      random: opts.random ?? Math.random,
    };
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.poll = setInterval(() => this.wake(), this.o.pollMs);
    this.poll.unref();
    this.wake();
  }

  /** Asks for a pass soon; calls in the same tick coalesce into one. */
  wake(): void {
    if (this.stopped || this.wakeQueued) return;
    this.wakeQueued = true;
    setImmediate(() => {
      this.wakeQueued = false;
      void this.pump();
    });
  }

  /** Runs passes until nothing is due or in flight and every attempt is recorded (tests, benchmarks, CLI). */
  async settle(): Promise<void> {
    const wasStopped = this.stopped;
    this.stopped = false;
    try {
      for (;;) {
        await this.pump();
        await this.idle();
        const due = await nextDueAt(this.deps.db);
        if (due === null || due > this.deps.clock.now()) return;
      }
    } finally {
      if (wasStopped) this.stopped = true;
    }
  }

  /** Stops claiming; waits for attempts in flight to finish and be recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poll);
    clearTimeout(this.dueTimer);
    await this.idle();
  }

  private idle(): Promise<void> {
    if (this.inFlight === 0 && !this.pumping && this.buffer.length === 0 && !this.flushing) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private checkIdle(): void {
    if (this.inFlight === 0 && !this.pumping && this.buffer.length === 0 && !this.flushing) {
      for (const w of this.idleWaiters.splice(0)) w();
    }
  }

  private async pump(): Promise<void> {
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.again = false;
        const free = this.o.maxInFlight - this.inFlight;
        if (free <= 0 || this.stopped) break;
        const skip = [...this.perMerchant].filter(([, n]) => n >= this.o.perEndpoint).map(([m]) => m);
        const claimed = await claimDue(this.deps.db, this.deps.dialect, {
          owner: this.owner,
          now: this.deps.clock.now(),
          leaseMs: this.o.leaseMs,
          limit: free,
          allowance: (m) => this.o.perEndpoint - (this.perMerchant.get(m) ?? 0),
          skipMerchants: skip,
        });
        if (claimed.length === 0) break;
        const endpoints = await this.endpoints([...new Set(claimed.map((c) => c.merchant_id))]);
        for (const d of claimed) {
          this.inFlight++;
          this.perMerchant.set(d.merchant_id, (this.perMerchant.get(d.merchant_id) ?? 0) + 1);
          void this.deliver(d, endpoints.get(d.merchant_id));
        }
        this.again = true;
      } while (this.again && !this.stopped);
    } catch (e) {
      this.deps.logger.error('webhook dispatch pass failed', { error: toError(e).message });
    } finally {
      this.pumping = false;
      this.checkIdle();
    }
    if (!this.stopped) await this.sleepUntilDue();
  }

  /** Between polls, wake exactly when the next retry falls due. */
  private async sleepUntilDue(): Promise<void> {
    try {
      const due = await nextDueAt(this.deps.db);
      clearTimeout(this.dueTimer);
      if (due === null || this.stopped) return;
      const wait = due - this.deps.clock.now();
      if (wait <= 0 || wait >= this.o.pollMs) return;
      this.dueTimer = setTimeout(() => this.wake(), wait);
      this.dueTimer.unref();
    } catch (e) {
      this.deps.logger.warn('webhook due check failed', { error: toError(e).message });
    }
  }

  private async endpoints(merchantIds: string[]): Promise<Map<string, Endpoint>> {
    const rows = await this.deps.db.selectFrom('merchants').select(['id', 'webhook_url', 'webhook_secret', 'mode']).where('id', 'in', merchantIds).execute();
    return new Map(rows.map((r) => [r.id, { url: r.webhook_url, secret: r.webhook_secret, mode: r.mode }]));
  }

  private async deliver(d: Claimed, ep: Endpoint | undefined): Promise<void> {
    const startedAt = this.deps.clock.now();
    let result: PostResult;
    let url = ep?.url ?? '';
    try {
      if (!ep?.url) throw new Error('no webhook URL configured');
      url = ep.url;
      // Signed with the secret current at send time, so a rotated secret applies to retries at once.
      result = await this.transport.post(ep.url, ep.mode, webhookHeaders(ep.secret, d.id, startedAt, d.payload), d.payload);
    } catch (e) {
      result = { statusCode: null, retryAfter: undefined, durationMs: 0, error: toError(e).message, responseExcerpt: null };
    }
    const outcome = this.outcomeOf(d, result);
    if (outcome.kind !== 'succeeded') {
      this.deps.logger.info('webhook attempt failed', { delivery_id: d.id, attempt: d.attempts, status: result.statusCode, error: outcome.error, outcome: outcome.kind });
    }
    this.buffer.push({ delivery: d, url, startedAt, durationMs: result.durationMs, responseExcerpt: result.responseExcerpt, outcome });
    this.inFlight--;
    const n = (this.perMerchant.get(d.merchant_id) ?? 1) - 1;
    if (n <= 0) this.perMerchant.delete(d.merchant_id);
    else this.perMerchant.set(d.merchant_id, n);
    void this.flush();
  }

  private outcomeOf(d: Claimed, r: PostResult): Outcome {
    const code = r.statusCode;
    if (code !== null && code >= 200 && code < 300) return { kind: 'succeeded', statusCode: code };
    if (code === 410) return { kind: 'gone', statusCode: 410, error: 'Endpoint answered 410 Gone: it is disabled until re-enabled' };
    const error = r.error ?? `HTTP ${code}`;
    const now = this.deps.clock.now();
    const step = d.schedule_step + 1;
    const delay = retryDelayMs(step, this.o.random, parseRetryAfter(r.retryAfter, now));
    if (delay === null) return { kind: 'failed', statusCode: code, error, scheduleStep: step };
    return { kind: 'retry', statusCode: code, error, nextAttemptAt: now + delay, scheduleStep: step };
  }

  /** One writer of attempt records at a time; whatever finished meanwhile goes in the next batch. */
  private flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    this.flushing = (async () => {
      while (this.buffer.length > 0) {
        const batch = this.buffer.splice(0, 500);
        try {
          await recordAttempts(this.deps.db, this.owner, this.deps.clock.now(), batch);
        } catch (e) {
          // The leases run out and the rows are retried: at-least-once, never lost.
          this.deps.logger.error('recording webhook attempts failed', { error: toError(e).message, count: batch.length });
        }
      }
    })().finally(() => {
      this.flushing = null;
      this.checkIdle();
      this.wake();
    });
    return this.flushing;
  }
}
