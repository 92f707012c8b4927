import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import { toError } from '../errors.js';
import { newId } from '../ids.js';
import type { Logger } from '../log.js';
import type { PaymentChanges } from '../payments/changes.js';
import type { Database } from '../store/schema.js';
import {
  claimDueMails,
  type MailAttemptRecord,
  nextMailDueAt,
  recordMailAttempts,
  releaseMailLeases,
} from './leases.js';
import { mailRetryDelayMs } from './schedule.js';
import type { MailTransport, SendOutcome } from './transport.js';

export interface MailDispatcherOptions {
  /** Mails handed to the relay at once (the transport's pooled connections share them). @default 10 */
  concurrency?: number;
  /** How long a claimed mail stays ours; a crashed holder's mails go again after it. @default 60000 */
  leaseMs?: number;
  /** Fallback poll: other processes' mails and due retries. @default 1000 */
  pollMs?: number;
  random?: () => number;
  owner?: string;
}

/**
 * Delivers the mail outbox through the relay. Everything that matters lives in the table, as with webhooks: leases
 * make several processes on one PostgreSQL safe, and a SIGKILL loses nothing (a mail on the wire is sent again
 * once its lease runs out, with the same Message-ID, so at most one duplicate that mail programs can tell apart).
 */
export class MailDispatcher {
  readonly owner: string;
  private readonly o: Required<Omit<MailDispatcherOptions, 'owner'>>;
  private stopped = true;
  private pumping: Promise<void> | null = null;
  private again = false;
  private poll: NodeJS.Timeout | undefined;
  private readonly sending = new Set<string>();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      dialect: 'sqlite' | 'postgres';
      clock: Clock;
      logger: Logger;
      /** Payment changes of this process: a change may have enqueued a receipt, so look at once. */
      changes?: PaymentChanges;
      onOutcome?: (kind: SendOutcome['kind']) => void;
    },
    private readonly transport: MailTransport,
    opts: MailDispatcherOptions = {},
  ) {
    this.owner = opts.owner ?? newId('mwk', 12);
    this.o = {
      concurrency: opts.concurrency ?? 10,
      leaseMs: opts.leaseMs ?? 60_000,
      pollMs: opts.pollMs ?? 1_000,
      random: opts.random ?? Math.random,
    };
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.unsubscribe = this.deps.changes?.subscribe((changes) => {
      if (changes.some((c) => c.kind === 'state')) this.wake();
    });
    this.poll = setInterval(() => this.wake(), this.o.pollMs);
    this.poll.unref();
    this.wake();
  }

  /** Asks for a pass now (a mail was just enqueued); passes asked for while one runs fold into one more. */
  wake(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.pump().finally(() => {
      this.pumping = null;
    });
  }

  /** Runs passes until nothing is due (tests, benchmarks). */
  async settle(): Promise<void> {
    const wasStopped = this.stopped;
    this.stopped = false;
    try {
      for (;;) {
        if (this.pumping) await this.pumping;
        this.pumping = this.pump().finally(() => {
          this.pumping = null;
        });
        await this.pumping;
        const due = await nextMailDueAt(this.deps.db);
        if (due === null || due > this.deps.clock.now()) return;
      }
    } finally {
      if (wasStopped) this.stopped = true;
    }
  }

  /**
   * Stops claiming and waits up to `graceMs` for mails on the wire to be recorded; after that their leases are
   * handed back (the relay may have taken them: the next holder resends with the same Message-ID).
   */
  async stop(graceMs = Number.POSITIVE_INFINITY): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearInterval(this.poll);
    let timer: NodeJS.Timeout | undefined;
    const done = await Promise.race([
      (this.pumping ?? Promise.resolve()).then(() => true),
      new Promise<boolean>((r) => {
        if (Number.isFinite(graceMs)) timer = setTimeout(() => r(false), graceMs);
      }),
    ]);
    clearTimeout(timer);
    if (done) return;
    try {
      await releaseMailLeases(this.deps.db, this.owner, [...this.sending]);
    } catch (e) {
      this.deps.logger.warn('releasing mail leases failed; they run out instead', { error: toError(e).message });
    }
  }

  private async pump(): Promise<void> {
    try {
      do {
        this.again = false;
        for (;;) {
          if (this.stopped) return;
          const now = this.deps.clock.now();
          const batch = await claimDueMails(this.deps.db, this.deps.dialect, {
            owner: this.owner,
            now,
            leaseMs: this.o.leaseMs,
            limit: this.o.concurrency,
          });
          if (batch.length === 0) break;
          const records = await Promise.all(batch.map((m) => this.attempt(m)));
          await recordMailAttempts(this.deps.db, this.owner, this.deps.clock.now(), records);
          for (const m of batch) this.sending.delete(m.id);
        }
      } while (this.again && !this.stopped);
    } catch (e) {
      // The store went away for a moment: the leases run out and the next poll takes the mails again.
      this.deps.logger.warn('mail dispatch pass failed', { error: toError(e).message });
    }
  }

  private async attempt(mail: MailAttemptRecord['mail']): Promise<MailAttemptRecord> {
    this.sending.add(mail.id);
    const startedAt = this.deps.clock.now();
    const t0 = performance.now();
    const outcome = await this.transport.send(mail);
    const durationMs = Math.round(performance.now() - t0);
    const delay = outcome.kind === 'retry' ? mailRetryDelayMs(mail.attempts, this.o.random) : null;
    const final = outcome.kind === 'retry' && delay === null ? 'failed' : outcome.kind;
    this.deps.onOutcome?.(final);
    if (final !== 'sent')
      this.deps.logger.info('mail not delivered', {
        mail_id: mail.id,
        attempt: mail.attempts,
        outcome: final,
        response: outcome.response,
      });
    return {
      mail,
      startedAt,
      durationMs,
      outcome,
      nextAttemptAt: delay === null ? null : this.deps.clock.now() + delay,
    };
  }
}
