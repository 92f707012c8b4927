import type { Kysely } from 'kysely';
import type { Payment } from '../payments/payment.js';
import type { Database } from '../store/schema.js';
import { type ChainSource, type ChainView, chainKey } from './types.js';

/**
 * The chains this service watches. An asset is payable in a mode only when its network has a source here:
 * test mode has the sandbox for every network; live mode only what the operator configured and can reach.
 */
export class ChainRegistry implements ChainView {
  private readonly sources = new Map<string, ChainSource>();
  /** Live chains whose last sync failed (or that never synced yet): not payable until one succeeds. */
  private readonly unreachable = new Set<string>();

  constructor(private readonly db: Kysely<Database>) {}

  add(source: ChainSource): void {
    this.sources.set(source.key, source);
  }

  get(key: string): ChainSource | undefined {
    return this.sources.get(key);
  }

  all(): ChainSource[] {
    return [...this.sources.values()];
  }

  setReachable(key: string, reachable: boolean): void {
    if (reachable) this.unreachable.delete(key);
    else this.unreachable.add(key);
  }

  isEnabled(mode: 'test' | 'live', network: string): boolean {
    const key = chainKey(mode, network);
    return this.sources.has(key) && !this.unreachable.has(key);
  }

  chainKeyOf(p: Pick<Payment, 'mode' | 'network'>): string {
    return chainKey(p.mode, p.network);
  }

  requiredConfirmations(key: string): number {
    return this.sources.get(key)?.requiredConfirmations ?? 1;
  }

  /** The watcher's checkpoint is the head every confirmation count is measured against. */
  async headOf(key: string, db: Kysely<Database> = this.db): Promise<number | null> {
    const row = await db.selectFrom('chain_checkpoints').select('height').where('chain', '=', key).executeTakeFirst();
    return row ? row.height : null;
  }
}
