import type { CoreDeps } from '../deps.js';
import { toError } from '../errors.js';
import { stateChanges } from './changes.js';
import type { Payment } from './payment.js';
import { recomputePayment } from './recompute.js';
import { overduePaymentIds } from './store.js';

const BATCH = 500;

/**
 * Expires waiting payments whose window closed. Runs in the service on a timer (not on reads), so webhooks for
 * `expired` go out even when nobody looks. Each payment is re-derived, never forced; a deposit from before the
 * deadline that the watcher sees only after this sweep re-opens the payment (lifecycle.ts).
 */
export async function sweepExpired(deps: Pick<CoreDeps, 'db' | 'clock' | 'chains'>, limit = BATCH): Promise<Payment[]> {
  const now = deps.clock.now();
  const changed: Payment[] = [];
  for (const id of await overduePaymentIds(deps.db, now, limit)) {
    const r = await deps.db.transaction().execute((trx) => recomputePayment(trx, id, now, deps.chains));
    if (r?.changed) changed.push(r.payment);
  }
  return changed;
}

/** Sweeps every `intervalMs` and publishes what expired. Returns the function that stops it. */
export function startExpirySweeper(
  deps: Pick<CoreDeps, 'db' | 'clock' | 'chains' | 'logger' | 'changes'>,
  intervalMs: number,
): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const tick = async () => {
    try {
      let batch: Payment[];
      do {
        batch = await sweepExpired(deps);
        deps.changes.publish(stateChanges(batch));
      } while (batch.length >= BATCH && !stopped);
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
