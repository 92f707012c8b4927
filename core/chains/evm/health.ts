import { toError } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { ChainRegistry } from '../registry.js';

/** A chain the health check can ask: `probe` succeeds when its node answers and serves the configured chain. */
export interface Probeable {
  key: string;
  probe(): Promise<unknown>;
}

export interface HealthCheckOptions {
  /** @default 5000 */
  intervalMs?: number;
}

/**
 * Keeps the registry's view of which live networks answer, so GET /currencies lists a live asset only while its
 * node is reachable and serves the configured chain (`head()` checks the chain id). A network counts as down until
 * its first check passes. Returns a function that stops the checks.
 */
export function startHealthChecks(
  chains: ChainRegistry,
  sources: readonly Probeable[],
  logger: Logger,
  opts: HealthCheckOptions = {},
): () => void {
  const intervalMs = opts.intervalMs ?? 5000;
  const timers = new Map<string, NodeJS.Timeout>();
  let stopped = false;
  for (const source of sources) {
    let wasUp: boolean | null = null;
    const check = async () => {
      let up: boolean;
      try {
        await source.probe();
        up = true;
      } catch (e) {
        up = false;
        if (wasUp !== false) logger.warn('chain unreachable', { chain: source.key, error: toError(e).message });
      }
      if (up && wasUp === false) logger.info('chain reachable again', { chain: source.key });
      wasUp = up;
      chains.setReachable(source.key, up);
      if (stopped) return;
      const t = setTimeout(check, intervalMs);
      t.unref();
      timers.set(source.key, t);
    };
    void check();
  }
  return () => {
    stopped = true;
    for (const t of timers.values()) clearTimeout(t);
  };
}
