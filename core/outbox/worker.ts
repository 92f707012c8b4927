import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import { toError } from '../errors.js';
import type { Logger } from '../log.js';
import type { PaymentChanges } from '../payments/changes.js';
import type { Database } from '../store/schema.js';
import { type OutboxTable, releaseLeases } from './leases.js';

export interface OutboxWorkerDeps {
  db: Kysely<Database>;
  dialect: 'sqlite' | 'postgres';
  clock: Clock;
  logger: Logger;
  /** Payment changes of this process: a state change may have written outbox rows, so it wakes the worker at once. */
  changes?: PaymentChanges;
}

/**
 * The life of a worker over a leased outbox (core/outbox/leases.ts): woken by payment changes and a fallback poll,
 * settled in tests, stopped with a grace after which the leases of attempts still on the wire are handed back (their
 * outcome is never recorded, so the next holder sends them again under the same id). Subclasses say how a pass
 * claims and sends (webhooks: per-endpoint lanes; mail: one batch at a time to the one relay).
 */
export abstract class OutboxWorker<Deps extends OutboxWorkerDeps = OutboxWorkerDeps> {
  protected stopped = true;
  /** Rows whose attempt is on the wire, so a stop that cannot wait for them can hand their leases back. */
  protected readonly sending = new Set<string>();
  private poll: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;

  protected constructor(
    private readonly outbox: { table: OutboxTable; label: string; pollMs: number },
    protected readonly deps: Deps,
    readonly owner: string,
  ) {}

  /** Asks for a pass soon. */
  abstract wake(): void;
  /** One pass, done when its attempts are recorded. */
  protected abstract pass(): Promise<void>;
  /** When the next unleased row falls due, or null. */
  protected abstract nextDue(): Promise<number | null>;
  /** Resolves once nothing claimed is left unrecorded. */
  protected abstract drained(): Promise<void>;
  /** At a stop: rows claimed but not yet on the wire, taken out of this worker (their leases go back at once). */
  protected takeUnsent(): string[] {
    return [];
  }
  /** At a stop: timers of the subclass. */
  protected onStop(): void {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.unsubscribe = this.deps.changes?.subscribe((changes) => {
      if (changes.some((c) => c.kind === 'state')) this.wake();
    });
    this.poll = setInterval(() => this.wake(), this.outbox.pollMs);
    this.poll.unref();
    this.wake();
  }

  /** Runs passes until nothing is due or in flight and every attempt is recorded (tests, benchmarks). */
  async settle(): Promise<void> {
    const wasStopped = this.stopped;
    this.stopped = false;
    try {
      for (;;) {
        await this.pass();
        const due = await this.nextDue();
        if (due === null || due > this.deps.clock.now()) return;
      }
    } finally {
      if (wasStopped) this.stopped = true;
    }
  }

  /**
   * Stops claiming, gives back leases of rows not yet sent, and waits for attempts in flight to be recorded. Those
   * still on the wire after `graceMs` are handed back too (lease released, attempt not counted).
   */
  async stop(graceMs = Number.POSITIVE_INFINITY): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearInterval(this.poll);
    this.onStop();
    await this.handBack(this.takeUnsent());
    let timer: NodeJS.Timeout | undefined;
    const settled = await Promise.race([
      this.drained().then(() => true),
      new Promise<boolean>((resolve) => {
        if (Number.isFinite(graceMs)) timer = setTimeout(() => resolve(false), graceMs);
      }),
    ]);
    clearTimeout(timer);
    if (settled) return;
    const handedBack = [...this.sending];
    if (await this.handBack(handedBack))
      this.deps.logger.warn(`stopping: handed back ${this.outbox.label} attempts still in flight`, {
        count: handedBack.length,
      });
  }

  private async handBack(ids: string[]): Promise<boolean> {
    try {
      await releaseLeases(this.deps.db, this.outbox.table, this.owner, ids);
      return true;
    } catch (e) {
      this.deps.logger.warn(`releasing ${this.outbox.label} leases failed; they run out instead`, {
        error: toError(e).message,
      });
      return false;
    }
  }
}
