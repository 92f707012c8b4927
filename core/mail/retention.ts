import type { Kysely } from 'kysely';
import { pruneFinished } from '../outbox/leases.js';
import type { Database } from '../store/schema.js';

/**
 * Deletes mails sent before `before`, with their attempts, in short batches like delivered webhooks
 * (core/outbox/leases.ts). Pending and failed mails stay: the log keeps what never arrived.
 */
export function pruneSentMail(db: Kysely<Database>, before: number, batchSize = 500): Promise<number> {
  return pruneFinished(db, 'mail_outbox', before, { batchSize, pauseMs: 0 });
}
