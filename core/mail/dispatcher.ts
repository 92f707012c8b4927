import { toError } from '../errors.js';
import { newId } from '../ids.js';
import { OutboxWorker, type OutboxWorkerDeps } from '../outbox/worker.js';
import { claimDueMails, type MailAttemptRecord, nextMailDueAt, recordMailAttempts } from './leases.js';
import { mailRetryDelayMs } from './schedule.js';
import type { MailTransport, SendOutcome } from './transport.js';

export interface MailDispatcherDeps extends OutboxWorkerDeps {
  onOutcome?: (kind: SendOutcome['kind']) => void;
}

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
export class MailDispatcher extends OutboxWorker<MailDispatcherDeps> {
  private readonly o: Required<Omit<MailDispatcherOptions, 'owner' | 'pollMs'>>;
  private pumping: Promise<void> | null = null;
  private again = false;

  constructor(
    deps: MailDispatcherDeps,
    private readonly transport: MailTransport,
    opts: MailDispatcherOptions = {},
  ) {
    super({ table: 'mail_outbox', label: 'mail', pollMs: opts.pollMs ?? 1_000 }, deps, opts.owner ?? newId('mwk', 12));
    this.o = {
      concurrency: opts.concurrency ?? 10,
      leaseMs: opts.leaseMs ?? 60_000,
      random: opts.random ?? Math.random,
    };
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

  protected async pass(): Promise<void> {
    if (this.pumping) await this.pumping;
    this.pumping = this.pump().finally(() => {
      this.pumping = null;
    });
    await this.pumping;
  }

  protected nextDue(): Promise<number | null> {
    return nextMailDueAt(this.deps.db);
  }

  /** A mail on the wire is recorded by the pass that sent it; after a hand-back the next holder resends it with the same Message-ID. */
  protected async drained(): Promise<void> {
    await this.pumping;
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
