import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { closeEpisodes, openEpisodeIn } from './episodes.js';

/**
 * A relayer sweep ended: a failed one opens the network's "sweeps failing" episode and tells the members of the
 * merchants whose forwarders it carried (who chose relayer notices), in the sweep's own transaction; a successful one
 * ends the episode, so the next failure is told again.
 */
export async function noteSweepOutcome(
  trx: Kysely<Database>,
  o: { sweepId: string; network: string | undefined; failed: boolean; error: string | null; merchantIds: string[] },
  now: number,
): Promise<void> {
  if (!o.network) return;
  const key = `sweep_failing:${o.network}`;
  if (!o.failed) {
    await closeEpisodes(trx, [key]);
    return;
  }
  await openEpisodeIn(
    trx,
    key,
    {
      event: 'relayer',
      key,
      scope: { merchantIds: [...new Set(o.merchantIds)] },
      title: `Sweeps are failing on ${o.network}`,
      text: [
        `A sweep of forwarders on ${o.network} failed; they are tried again after a pause. Funds stay in the forwarders (your payout is unchanged) until a sweep succeeds.`,
      ],
      rows: [
        ['Sweep', o.sweepId],
        ['Error', o.error ?? 'failed'],
      ],
      page: (m) => `/dashboard/m/${m}/sweeps`,
    },
    now,
  );
}
