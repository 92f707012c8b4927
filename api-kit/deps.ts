import type { CoreDeps } from '../core/deps.js';
import type { Payment } from '../core/payments/payment.js';

/** What the HTTP APIs need beyond the core: limits, and hooks into the running service. */
export interface ApiDeps extends CoreDeps {
  limits: {
    bodyBytes: number;
    ratePerSecond: number;
  };
  /** Runs the watcher of a chain now (sandbox routes wait for it so a response reflects the new state). */
  syncChain(chainKey: string): Promise<void>;
  /** Tells the running service that payments changed outside a watcher (webhook wake-up, live streams). */
  notifyChanged(payments: Payment[]): void;
}
