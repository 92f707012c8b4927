import type { Hono } from 'hono';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { readQuery } from '../api-kit/body.js';
import { json } from '../api-kit/envelope.js';
import type { ChainWatchers } from '../core/chains/watchers.js';
import { toError } from '../core/errors.js';
import type { RatesStatus } from '../core/pricing/types.js';
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
  /** The live price source (test mode's fixed prices never go stale). */
  rates: RatesStatus;
}

/** What else must be well for ready, when the probe asks: `?strict=chains`, `?strict=rates`, `?strict=chains,rates`. */
export type Strictness = { chains: boolean; rates: boolean };

export const readyzQuerySchema = z.strictObject({
  strict: z
    .string()
    .regex(/^(chains|rates)(,(chains|rates))*$/, 'Must be chains, rates or chains,rates')
    .optional(),
});

/**
 * Whether this process can serve: the store answers and every migration this code knows is applied (a replica of a
 * newer version waits for the one that migrates). Chains configured in CHAINS_CONFIG and the live price source are
 * reported but do not count by default: an unreachable node or a stale price costs only that chain's (or that
 * price's) assets, which /currencies and the pickers unlist, while every other asset, the dashboard, the hosted pages
 * and the drop-in keep working. Behind a proxy that routes by this probe, counting them would take the whole site
 * down with one node. `strict` counts them for an operator who wants that. The test-mode sandbox chains live in the
 * store and are not listed.
 */
export async function readiness(
  db: Kysely<Database>,
  watchers: ChainWatchers,
  rates: { status(): RatesStatus },
  strict: Strictness = { chains: false, rates: false },
): Promise<Readiness> {
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
  const chainsReady = !strict.chains || chains.every((c) => c.state === 'following' || c.state === 'lagging');
  const rateStatus = rates.status();
  const ratesReady = !strict.rates || rateStatus.state === 'fresh' || rateStatus.state === 'off';
  try {
    await sql`select 1`.execute(db);
  } catch (e) {
    const storeError = toError(e).message;
    return {
      ready: false,
      store: 'unreachable',
      store_error: storeError,
      migrations: { pending: [] },
      chains,
      rates: rateStatus,
    };
  }
  const pending = await pendingMigrations(db);
  return {
    ready: pending.length === 0 && chainsReady && ratesReady,
    store: 'ok',
    migrations: { pending },
    chains,
    rates: rateStatus,
  };
}

/**
 * GET /healthz answers 200 while the process runs and its event loop turns (a liveness probe: restart me if not);
 * it touches nothing else, so a store outage never makes an orchestrator restart every replica. GET /readyz is the
 * readiness probe: 200 when ready, 503 with the same body saying what is not (README: Health and readiness).
 */
export function registerHealthRoutes(
  app: Hono,
  db: Kysely<Database>,
  watchers: ChainWatchers,
  rates: { status(): RatesStatus },
): void {
  app.get('/healthz', (c) => json(c, { success: true, message: 'OK', data: { status: 'alive' } }));
  app.get('/readyz', async (c) => {
    const parts = readQuery(c, readyzQuerySchema).strict?.split(',') ?? [];
    const strict = { chains: parts.includes('chains'), rates: parts.includes('rates') };
    const r = await readiness(db, watchers, rates, strict);
    const body = { success: r.ready, message: r.ready ? 'Ready' : 'Not ready', data: r };
    return json(c, body, r.ready ? 200 : 503, { 'cache-control': 'no-store' });
  });
}
