import type { Kysely } from 'kysely';
import type { RatesStatus } from '../pricing/types.js';
import type { Database } from '../store/schema.js';
import { closeEpisodes, openEpisode } from './episodes.js';

const PRICES_STALE = 'prices_stale';

/**
 * Prices stale: the live price source stopped answering and payments in some assets are refused. Told to the members
 * of live merchants who chose it, once per episode (the source's status is read from memory, with no change to ride
 * on). Returns whether this call opened an episode.
 */
export async function checkPrices(db: Kysely<Database>, status: RatesStatus, now: number): Promise<boolean> {
  if (status.state === 'fresh') {
    await closeEpisodes(db, [PRICES_STALE]);
    return false;
  }
  if (status.state !== 'stale') return false;
  return openEpisode(
    db,
    PRICES_STALE,
    {
      event: 'prices_stale',
      key: PRICES_STALE,
      scope: { mode: 'live' },
      title: 'Prices are stale: live payments in some assets are refused',
      text: [
        `The price source has not answered since ${status.stale_since ?? 'the service started'}. Until it does, new live payments in these assets are refused: ${status.stale_ids.join(', ')}.`,
        'You are told again only if prices go stale again after they are fresh.',
      ],
      ...(status.last_error ? { rows: [['Last error', status.last_error]] as [string, string][] } : {}),
      page: (m) => `/dashboard/m/${m}/overview`,
    },
    now,
  );
}

/**
 * A relayer low on gas: its sweeps stop once it cannot pay for them. Told to the members of live merchants who chose
 * relayer notices, once per episode per network; the episode ends when the balance is back above the limit.
 */
export async function checkRelayerBalance(
  db: Kysely<Database>,
  o: { network: string; relayer: string; balance: string; low: boolean },
  now: number,
): Promise<boolean> {
  const key = `relayer_low:${o.network}`;
  if (!o.low) {
    await closeEpisodes(db, [key]);
    return false;
  }
  return openEpisode(
    db,
    key,
    {
      event: 'relayer',
      key,
      scope: { mode: 'live' },
      title: `The relayer on ${o.network} is low on gas`,
      text: [
        `The relayer that sweeps forwarders on ${o.network} holds ${o.balance}, below its low-balance limit. Once it cannot pay for a sweep, received funds wait in their forwarders: ask the operator to fund it.`,
      ],
      rows: [
        ['Network', o.network],
        ['Relayer', o.relayer],
        ['Balance', o.balance],
      ],
      page: (m) => `/dashboard/m/${m}/sweeps`,
    },
    now,
  );
}
