import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import { toError } from '../errors.js';
import type { Logger } from '../log.js';
import type { RatesStatus } from '../pricing/types.js';
import type { Database } from '../store/schema.js';
import { checkPrices } from './conditions.js';
import { sendDueDigests } from './digest.js';

export interface NotificationChecks {
  db: Kysely<Database>;
  clock: Clock;
  logger: Logger;
  /** The live price source's status (from memory). */
  rates: () => RatesStatus;
  /** Called when mail was written, so the mail dispatcher looks at once. */
  wakeMail: () => void;
}

/** One check: digests that fell due, and whether prices went stale. Safe to run in every process at once. */
export async function runNotificationChecks(d: NotificationChecks, digestHour: number): Promise<void> {
  const now = d.clock.now();
  const digests = await sendDueDigests(d.db, now, digestHour);
  const stale = await checkPrices(d.db, d.rates(), now);
  if (digests > 0 || stale) d.wakeMail();
}

/** Runs the checks every `intervalMs` (the timer never keeps the process alive); returns the stop function. */
export function startNotificationChecks(d: NotificationChecks, o: { digestHour: number; intervalMs: number }) {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = runNotificationChecks(d, o.digestHour)
      .catch((e) => d.logger.warn('notification checks failed', { error: toError(e).message }))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, o.intervalMs);
  timer.unref();
  tick();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
