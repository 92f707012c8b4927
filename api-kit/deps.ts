import type { KeyNet } from '../core/chains/families.js';
import type { Sweeper } from '../core/chains/family.js';
import type { ChainWatchers } from '../core/chains/watchers.js';
import type { CoreDeps } from '../core/deps.js';
import type { WebhookDispatcher } from '../core/webhooks/dispatcher.js';
import type { ClientAddress } from './client-address.js';

/** What the HTTP APIs need beyond the core: limits, and the running service's watchers and webhook dispatcher. */
export interface ApiDeps extends CoreDeps {
  limits: {
    bodyBytes: number;
    ratePerSecond: number;
  };
  /** The client address that rate limits and sign-in throttling count (TRUST_PROXY decides whom to believe). */
  clientAddress: ClientAddress;
  /** Sandbox routes catch their chain up before answering, so the answer shows the new state. */
  watchers: Pick<ChainWatchers, 'sync'>;
  /**
   * Wakes the dispatcher when deliveries were queued outside a payment change (redelivery, test event, re-enable);
   * tells followers (the dashboard's event stream) which deliveries just had an attempt recorded.
   */
  webhooks: Pick<WebhookDispatcher, 'wake' | 'onRecorded'>;
  /**
   * The mail outbox: `wake` after enqueueing outside a payment change (an invite, a reset); `relay` is false while no
   * SMTP_URL is set (mail stays in the outbox for owners to read).
   */
  mail: { wake(): void; relay: boolean };
  /** The forwarder sweeper of each EVM network with a factory (its status, what a wallet sweep sends). */
  sweepers: readonly Sweeper[];
  /**
   * The network of a Bitcoin-family chain's configured node (CHAINS_CONFIG), which a pasted key and its addresses are
   * read for, as the admin CLI does; null when the chain has no node configured (then mainnet).
   */
  utxoNetOf(chain: string): KeyNet | null;
}
