import { toError } from '../errors.js';
import { newId } from '../ids.js';
import { OutboxWorker, type OutboxWorkerDeps } from '../outbox/worker.js';
import {
  type AttemptRecord,
  type Claimed,
  claimDue,
  type Endpoint,
  nextDueAt,
  type Outcome,
  recordAttempts,
} from './leases.js';
import { parseRetryAfter, retryDelayMs } from './schedule.js';
import { eventOfKind, webhookHeaders } from './sign.js';
import type { PostResult, WebhookTransport } from './transport.js';

export interface DispatcherOptions {
  /** Per-request budget. @default 10000 */
  timeoutMs?: number;
  /**
   * How long a claimed delivery stays ours; a crashed holder's rows are retried after this. A claimed row may wait
   * in its endpoint's queue for one round of requests before it is sent, hence two budgets plus a margin.
   * @default 2 * timeoutMs + 5000
   */
  leaseMs?: number;
  /** Fallback poll: picks up rows of crashed processes, other processes' writes and due retries. @default 1000 */
  pollMs?: number;
  /** Requests in flight to one endpoint: a slow endpoint holds at most this many slots. @default 16 */
  perEndpoint?: number;
  /** Deliveries claimed and not yet finished in this process, queued ones included (64 hanging endpoints fill it). @default 2048 */
  maxClaimed?: number;
  /** Source of jitter in [0, 1). @default Math.random */
  random?: () => number;
  /** Lease owner name of this process. @default a random id */
  owner?: string;
}

export interface DispatcherDeps extends OutboxWorkerDeps {
  /** Told every attempt's outcome (the service's metrics count them); never affects delivery. */
  onOutcome?: (kind: Outcome['kind']) => void;
}

/** Deliveries whose attempts were just recorded: what a live view of them needs to read them again. */
export type RecordedListener = (recorded: readonly { merchantId: string; deliveryId: string }[]) => void;

/** Per endpoint: requests in flight, and leased rows waiting for a slot (at most one more round of them). */
type Lane = { inFlight: number; queue: { d: Claimed; ep: Endpoint }[] };

/**
 * Delivers outbox rows. Woken by payment changes (core/payments/changes.ts: no polling delay on the hot path), plus
 * a fallback poll for other processes' rows and due retries.
 * Everything that matters lives in the table: leases make several processes safe on PostgreSQL, and a SIGKILL
 * loses nothing (an attempt in flight is retried, with the same delivery id, once its lease runs out).
 * Each endpoint has its own lane, so a dead or slow endpoint only ever occupies its own slots.
 */
export class WebhookDispatcher extends OutboxWorker<DispatcherDeps> {
  private readonly o: Required<Omit<DispatcherOptions, 'owner' | 'pollMs'>> & { pollMs: number };
  private readonly lanes = new Map<string, Lane>();
  private claimedCount = 0;
  private pumping = false;
  private again = false;
  private wakeQueued = false;
  private dueTimer: NodeJS.Timeout | undefined;
  private buffer: AttemptRecord[] = [];
  private flushing: Promise<void> | null = null;
  private readonly idleWaiters: (() => void)[] = [];
  private readonly recordedListeners = new Set<RecordedListener>();

  constructor(
    deps: DispatcherDeps,
    private readonly transport: WebhookTransport,
    opts: DispatcherOptions = {},
  ) {
    const pollMs = opts.pollMs ?? 1_000;
    super({ table: 'webhook_deliveries', label: 'webhook', pollMs }, deps, opts.owner ?? newId('wrk', 12));
    const timeoutMs = opts.timeoutMs ?? 10_000;
    this.o = {
      timeoutMs,
      leaseMs: opts.leaseMs ?? 2 * timeoutMs + 5_000,
      pollMs,
      perEndpoint: opts.perEndpoint ?? 16,
      maxClaimed: opts.maxClaimed ?? 2048,
      random: opts.random ?? Math.random,
    };
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

  protected async pass(): Promise<void> {
    await this.pump();
    await this.idle();
  }

  protected nextDue(): Promise<number | null> {
    return nextDueAt(this.deps.db);
  }

  /** Attempts still on the wire after the grace are never recorded: receivers deduplicate by the delivery id. */
  protected drained(): Promise<void> {
    return this.idle();
  }

  /** Queued rows were never sent: their leases go back at once, so other processes take them. */
  protected override takeUnsent(): string[] {
    const unsent: string[] = [];
    for (const lane of this.lanes.values()) for (const q of lane.queue.splice(0)) unsent.push(q.d.id);
    this.claimedCount -= unsent.length;
    return unsent;
  }

  protected override onStop(): void {
    clearTimeout(this.dueTimer);
  }

  private busy(): boolean {
    return this.claimedCount > 0 || this.pumping || this.buffer.length > 0 || this.flushing !== null;
  }

  private idle(): Promise<void> {
    if (!this.busy()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private checkIdle(): void {
    if (!this.busy()) for (const w of this.idleWaiters.splice(0)) w();
  }

  private lane(merchantId: string): Lane {
    let l = this.lanes.get(merchantId);
    if (!l) {
      l = { inFlight: 0, queue: [] };
      this.lanes.set(merchantId, l);
    }
    return l;
  }

  private async pump(): Promise<void> {
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    let claimedAny = false;
    try {
      do {
        this.again = false;
        const free = this.o.maxClaimed - this.claimedCount;
        if (free <= 0 || this.stopped) break;
        const cap = 2 * this.o.perEndpoint; // in flight + one round queued
        const held = (m: string) => {
          const l = this.lanes.get(m);
          return l ? l.inFlight + l.queue.length : 0;
        };
        const full = [...this.lanes.keys()].filter((m) => held(m) >= cap);
        const { claimed, endpoints } = await claimDue(this.deps.db, this.deps.dialect, {
          owner: this.owner,
          now: this.deps.clock.now(),
          leaseMs: this.o.leaseMs,
          limit: free,
          allowance: (m) => cap - held(m),
          skipMerchants: full,
        });
        if (claimed.length === 0) break;
        claimedAny = true;
        this.claimedCount += claimed.length;
        const touched = new Set<string>();
        for (const d of claimed) {
          const ep = endpoints.get(d.merchant_id) ?? { url: null, secret: '', mode: 'live' };
          this.lane(d.merchant_id).queue.push({ d, ep });
          touched.add(d.merchant_id);
        }
        for (const m of touched) this.drain(m);
        this.again = true;
      } while (this.again && !this.stopped);
    } catch (e) {
      this.deps.logger.error('webhook dispatch pass failed', { error: toError(e).message });
    } finally {
      this.pumping = false;
      this.checkIdle();
    }
    // Busy: completions wake the next pass. Idle: sleep until the next retry falls due (or the poll).
    if (!this.stopped && !claimedAny && this.claimedCount === 0) await this.sleepUntilDue();
  }

  /** Starts queued sends of one endpoint while it has free slots: no store round trip between them. */
  private drain(merchantId: string): void {
    const lane = this.lanes.get(merchantId);
    if (!lane) return;
    while (lane.inFlight < this.o.perEndpoint && lane.queue.length > 0) {
      const next = lane.queue.shift() as { d: Claimed; ep: Endpoint };
      lane.inFlight++;
      this.sending.add(next.d.id);
      void this.deliver(next.d, next.ep);
    }
    if (lane.inFlight === 0 && lane.queue.length === 0) this.lanes.delete(merchantId);
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

  private async deliver(d: Claimed, ep: Endpoint): Promise<void> {
    const startedAt = this.deps.clock.now();
    let result: PostResult;
    try {
      if (!ep.url) throw new Error('no webhook URL configured');
      // Signed with the secret read at claim time: a rotated secret applies to the next claim, retries included.
      result = await this.transport.post(
        ep.url,
        ep.mode,
        webhookHeaders(ep.secret, d.id, startedAt, d.payload, eventOfKind(d.kind)),
        d.payload,
      );
    } catch (e) {
      result = {
        statusCode: null,
        retryAfter: undefined,
        durationMs: 0,
        error: toError(e).message,
        responseExcerpt: null,
      };
    }
    this.sending.delete(d.id);
    const outcome = this.outcomeOf(d, result);
    this.deps.onOutcome?.(outcome.kind);
    if (outcome.kind !== 'succeeded') {
      this.deps.logger.info('webhook attempt failed', {
        delivery_id: d.id,
        attempt: d.attempts,
        status: result.statusCode,
        error: outcome.error,
        outcome: outcome.kind,
      });
    }
    this.buffer.push({
      delivery: d,
      url: ep.url ?? '',
      startedAt,
      durationMs: result.durationMs,
      responseExcerpt: result.responseExcerpt,
      outcome,
    });
    const lane = this.lanes.get(d.merchant_id);
    if (lane) lane.inFlight--;
    this.claimedCount--;
    this.drain(d.merchant_id);
    void this.flush();
    // Refill a lane once half its queue is used, not per freed slot: one claim then fetches many rows.
    const left = this.lanes.get(d.merchant_id);
    if (!left || left.queue.length <= this.o.perEndpoint / 2) this.wake();
  }

  /**
   * Follows attempts as they are recorded in this process (the dashboard's live delivery views); returns the
   * function that stops. Other processes' attempts are not told here: a view catches them on its next read.
   */
  onRecorded(listener: RecordedListener): () => void {
    this.recordedListeners.add(listener);
    return () => this.recordedListeners.delete(listener);
  }

  private tellRecorded(batch: readonly AttemptRecord[]): void {
    if (this.recordedListeners.size === 0) return;
    const recorded = batch.map((r) => ({ merchantId: r.delivery.merchant_id, deliveryId: r.delivery.id }));
    for (const l of this.recordedListeners) {
      try {
        l(recorded);
      } catch (e) {
        this.deps.logger.error('a follower of webhook attempts failed', { error: toError(e).message });
      }
    }
  }

  private outcomeOf(d: Claimed, r: PostResult): Outcome {
    const code = r.statusCode;
    if (code !== null && code >= 200 && code < 300) return { kind: 'succeeded', statusCode: code };
    if (code === 410)
      return { kind: 'gone', statusCode: 410, error: 'Endpoint answered 410 Gone: it is disabled until re-enabled' };
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
          this.tellRecorded(batch);
        } catch (e) {
          // The leases run out and the rows are retried: at-least-once, never lost.
          this.deps.logger.error('recording webhook attempts failed', {
            error: toError(e).message,
            count: batch.length,
          });
        }
      }
    })().finally(() => {
      this.flushing = null;
      this.checkIdle();
      // Released leases may make rows due (short retries): a pass sees them or sets the timer for them.
      this.wake();
    });
    return this.flushing;
  }
}
