import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { closeEpisodes, openEpisodeIn } from './episodes.js';

const offKey = (merchantId: string) => `webhook_off:${merchantId}`;
const failingKey = (merchantId: string) => `webhook_failing:${merchantId}`;

/**
 * The merchant's webhook endpoint answered 410 Gone and was switched off: its members who chose webhook notices are
 * told, in the transaction that switches it off, once until it is switched on again.
 */
export async function noteEndpointSwitchedOff(
  trx: Kysely<Database>,
  o: { merchantId: string; url: string },
  now: number,
): Promise<void> {
  await openEpisodeIn(
    trx,
    offKey(o.merchantId),
    {
      event: 'webhook_failing',
      key: offKey(o.merchantId),
      scope: { merchantIds: [o.merchantId] },
      title: 'Your webhook endpoint was switched off',
      text: [
        'Your webhook endpoint answered 410 Gone, so it was switched off. Events are kept and go out once you switch it on again on the Webhooks page.',
      ],
      rows: [['Endpoint', o.url]],
      page: (m) => `/dashboard/m/${m}/webhooks`,
    },
    now,
  );
}

/** A delivery failed for good (its retries ran out): told once until a delivery to the endpoint succeeds again. */
export async function noteDeliveryFailed(
  trx: Kysely<Database>,
  o: { merchantId: string; url: string; error: string },
  now: number,
): Promise<void> {
  await openEpisodeIn(
    trx,
    failingKey(o.merchantId),
    {
      event: 'webhook_failing',
      key: failingKey(o.merchantId),
      scope: { merchantIds: [o.merchantId] },
      title: 'Your webhook endpoint is failing',
      text: [
        'A webhook delivery failed after all its retries. Failed deliveries can be sent again from the Webhooks page once the endpoint answers.',
      ],
      rows: [
        ['Endpoint', o.url],
        ['Last error', o.error],
      ],
      page: (m) => `/dashboard/m/${m}/webhooks`,
    },
    now,
  );
}

/** Deliveries succeeded, or the endpoint was switched on: the next failure is news again. */
export async function noteEndpointHealthy(trx: Kysely<Database>, merchantIds: readonly string[]): Promise<void> {
  await closeEpisodes(
    trx,
    [...new Set(merchantIds)].flatMap((m) => [failingKey(m)]),
  );
}

export async function noteEndpointSwitchedOn(trx: Kysely<Database>, merchantId: string): Promise<void> {
  await closeEpisodes(trx, [offKey(merchantId), failingKey(merchantId)]);
}
