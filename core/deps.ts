import type { Kysely } from 'kysely';
import type { AddressAllocator } from './addresses/types.js';
import type { Catalog } from './catalog/catalog.js';
import type { ChainRegistry } from './chains/registry.js';
import type { Clock } from './clock.js';
import type { Logger } from './log.js';
import type { KeyCache } from './merchants/key-cache.js';
import type { KeyUsage } from './merchants/key-usage.js';
import type { PaymentChanges } from './payments/changes.js';
import type { RateProvider } from './pricing/types.js';
import type { Database } from './store/schema.js';

export type Mode = 'test' | 'live';

/** Everything the payments domain needs, built once by the composition root and passed in. */
export interface CoreDeps {
  db: Kysely<Database>;
  dialect: 'sqlite' | 'postgres';
  clock: Clock;
  logger: Logger;
  catalog: Catalog;
  chains: ChainRegistry;
  rates: Record<Mode, RateProvider>;
  allocators: Record<Mode, AddressAllocator>;
  /** The presented-key cache (core/merchants/key-cache.ts); key and merchant writes in this process empty it. */
  keys: KeyCache;
  /** Last-used times of API keys, noted per request and written at most once a minute per key. */
  keyUsage: KeyUsage;
  /** Payment changes of this process, published after they commit (core/payments/changes.ts). */
  changes: PaymentChanges;
  settings: {
    publicUrl: string;
    ttlSeconds: number;
    graceSeconds: number;
    /** Signs hosted-page URLs (`/pay/{id}?t=...`) so a payment id alone never reads a payment. Kept in the store. */
    pageSecret: string;
    /** The UTC hour members' notification digests go out (NOTIFY_DIGEST_HOUR). @default 7 */
    notifyDigestHour?: number;
  };
}
