import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { type Notice, notify } from './notify.js';

/**
 * A condition that persists (prices stale, a relayer low on gas, a webhook endpoint failing) is noticed on every
 * check but mailed once per episode: the episode's row is inserted (its key is the primary key, so of several
 * processes exactly one inserts it) in the same transaction as the notice, and removed once the condition clears.
 * The notice's key becomes the episode's key and start, so a later episode is mailed again.
 */
export function openEpisode(db: Kysely<Database>, key: string, notice: Notice, now: number): Promise<boolean> {
  return db.transaction().execute((trx) => openEpisodeIn(trx, key, notice, now));
}

/** openEpisode inside the caller's transaction (a change that causes the condition: a sweep that failed). */
export async function openEpisodeIn(trx: Kysely<Database>, key: string, notice: Notice, now: number): Promise<boolean> {
  const res = await trx
    .insertInto('notification_episodes')
    .values({ key, opened_at: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  if (Number(res.numInsertedOrUpdatedRows ?? 0n) === 0) return false;
  await notify(trx, { ...notice, key: `${key}:${now}` }, now);
  return true;
}

/** Ends episodes whose condition cleared; the next time it holds is a new episode. */
export async function closeEpisodes(db: Kysely<Database>, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.deleteFrom('notification_episodes').where('key', 'in', keys).execute();
}
