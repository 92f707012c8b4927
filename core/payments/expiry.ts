import type { CoreDeps } from '../deps.js';
import { toError } from '../errors.js';
import type { Payment } from './payment.js';
import { recomputePayment } from './recompute.js';

/**
 * Expires waiting payments whose window closed. Runs in the service on a timer (not on reads), so webhooks for
 * `expired` go out even when nobody looks. Each payment is re-derived, never forced; a deposit from before the
 * deadline that the watcher sees only after this sweep re-opens the payment (lifecycle.ts).
 */
export async function sweepExpired(deps: Pick<CoreDeps, 'db' | 'clock' | 'chains'>, limit = 500): Promise<Payment[]> {
  const now = deps.clock.now();
  const due = await deps.db
    .selectFrom('payments')
    .select('id')
    .where('status', '=', 'waiting')
    .where('valid_until', '<', now)
    .orderBy('valid_until')
    .limit(limit)
    .execute();
  const changed: Payment[] = [];
  for (const { id } of due) {
    const p = await deps.db.transaction().execute((trx) => recomputePayment(trx, id, now, deps.chains));
    if (p) changed.push(p);
  }
  return changed;
}

export function startExpirySweeper(
  deps: Pick<CoreDeps, 'db' | 'clock' | 'chains' | 'logger'>,
  intervalMs: number,
  onChanged: (payments: Payment[]) => void,
): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const tick = async () => {
    try {
      let batch: Payment[];
      do {
        batch = await sweepExpired(deps);
        if (batch.length > 0) onChanged(batch);
      } while (batch.length >= 500 && !stopped);
    } catch (e) {
      deps.logger.warn('expiry sweep failed', { error: toError(e).message });
    }
    if (!stopped) {
      timer = setTimeout(tick, intervalMs);
      timer.unref();
    }
  };
  timer = setTimeout(tick, intervalMs);
  timer.unref();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
