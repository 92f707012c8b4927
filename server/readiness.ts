import type { Hono } from 'hono';
import { type Kysely, sql } from 'kysely';
import { json } from '../api-kit/envelope.js';
import type { ChainWatchers } from '../core/chains/watchers.js';
import { toError } from '../core/errors.js';
import { pendingMigrations } from '../core/store/migration-status.js';
import type { Database } from '../core/store/schema.js';

/** One configured (live) chain as /readyz reports it. */
export interface ChainReadiness {
  chain: string;
  /** following: the last poll succeeded; lagging: the node answers but is behind our checkpoint (still payable). */
  state: 'following' | 'lagging' | 'unreachable' | 'starting';
  node_head: number | null;
  processed: number | null;
  errors: number;
  last_error: string | null;
}

export interface Readiness {
  ready: boolean;
  store: 'ok' | 'unreachable';
  store_error?: string;
  migrations: { pending: string[] };
  chains: ChainReadiness[];
}

/**
 * Whether this process can serve payments: the store answers, every migration this code knows is applied (a
 * replica of a newer version waits for the one that migrates), and every chain configured in CHAINS_CONFIG is
 * followed. The test-mode sandbox chains live in the store and are not listed.
 */
export async function readiness(db: Kysely<Database>, watchers: ChainWatchers): Promise<Readiness> {
  const chains: ChainReadiness[] = [];
  for (const w of watchers.all()) {
    if (w.source.mode !== 'live') continue;
    const h = w.health;
    const state =
      h.lastPoll === 'ok'
        ? 'following'
        : h.lastPoll === 'lagging'
          ? 'lagging'
          : h.lastPoll === 'failed'
            ? 'unreachable'
            : 'starting';
    chains.push({
      chain: w.source.key,
      state,
      node_head: h.nodeHead,
      processed: h.processed,
      errors: h.errors,
      last_error: h.lastError,
    });
  }
  const chainsReady = chains.every((c) => c.state === 'following' || c.state === 'lagging');
  try {
    await sql`select 1`.execute(db);
  } catch (e) {
    const storeError = toError(e).message;
    return { ready: false, store: 'unreachable', store_error: storeError, migrations: { pending: [] }, chains };
  }
  const pending = await pendingMigrations(db);
  return { ready: pending.length === 0 && chainsReady, store: 'ok', migrations: { pending }, chains };
}

/**
 * GET /healthz answers 200 while the process runs and its event loop turns (a liveness probe: restart me if not);
 * it touches nothing else, so a store outage never makes an orchestrator restart every replica. GET /readyz is the
 * readiness probe: 200 when ready, 503 with the same body saying what is not.
 */
export function registerHealthRoutes(app: Hono, db: Kysely<Database>, watchers: ChainWatchers): void {
  app.get('/healthz', (c) => json(c, { success: true, message: 'OK', data: { status: 'alive' } }));
  app.get('/readyz', async (c) => {
    const r = await readiness(db, watchers);
    const body = { success: r.ready, message: r.ready ? 'Ready' : 'Not ready', data: r };
    return json(c, body, r.ready ? 200 : 503, { 'cache-control': 'no-store' });
  });
}
