import type { ChainSource } from './types.js';
import { ChainWatcher, type WatcherDeps } from './watcher.js';

/**
 * The service's chain watchers, one per source, by chain key. Adding a source registers it with the chain registry
 * too, so a chain is payable exactly when it is watched (and, live, reachable).
 */
export class ChainWatchers {
  readonly #watchers = new Map<string, ChainWatcher>();

  constructor(private readonly deps: WatcherDeps) {}

  /** Watches `source`; a live one counts as unreachable until its first sync succeeds. */
  add(source: ChainSource): void {
    this.deps.chains.add(source);
    if (source.mode === 'live') this.deps.chains.setReachable(source.key, false);
    this.#watchers.set(source.key, new ChainWatcher(this.deps, source));
  }

  /** Catches one chain up now, so an answer can show what a route just did on the sandbox chain. */
  async sync(key: string): Promise<void> {
    await this.#watchers.get(key)?.sync();
  }

  get(key: string): ChainWatcher | undefined {
    return this.#watchers.get(key);
  }

  /** Every watcher (the metrics read their health). */
  all(): IterableIterator<ChainWatcher> {
    return this.#watchers.values();
  }

  start(): void {
    for (const w of this.#watchers.values()) w.start();
  }

  /** Stops every watcher, each at a checkpoint (see ChainWatcher.stop). */
  async stop(): Promise<void> {
    await Promise.all([...this.#watchers.values()].map((w) => w.stop()));
  }
}
