import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { invalid } from '../errors.js';

/**
 * Keyset cursors of lists (payments, webhook deliveries): the (sort key, id) of the last row of the previous page,
 * opaque to clients; the key is created_at, or the price in cents for the payment list sorted by amount. Pages stay stable while rows are added, and a page costs an index range scan.
 */
export interface Cursor {
  at: number;
  id: string;
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(`${c.at}:${c.id}`).toString('base64url');
}

/** The cursor, or null when the text is not one of ours. */
export function decodeCursor(text: string): Cursor | null {
  const m = /^(\d{1,16}):([A-Za-z0-9_]{1,100})$/.exec(Buffer.from(text, 'base64url').toString());
  return m?.[1] && m[2] ? { at: Number(m[1]), id: m[2] } : null;
}

/**
 * One newest-first page of `query` (over a table with `created_at` and `id`) after `cursor`: one row more than
 * `limit` is read to know whether another page follows. A cursor that is not ours is the 422 on `cursor`.
 */
export function newestFirstPage<DB, TB extends keyof DB, R extends { created_at: number; id: string }>(
  query: SelectQueryBuilder<DB, TB, R>,
  cursor: string | undefined,
  limit: number,
): Promise<{ rows: R[]; nextCursor: string | null }> {
  return keysetPage(query, { key: sql`created_at`, keyOf: (r) => r.created_at, descending: true }, cursor, limit);
}

/**
 * One page of `query` in the order of an integer sort key (`key`, as SQL; `keyOf`, the same read from a row), ties
 * broken by id in the same direction, after `cursor`. The cursor holds the last row's key and id.
 */
export async function keysetPage<DB, TB extends keyof DB, R extends { id: string }>(
  query: SelectQueryBuilder<DB, TB, R>,
  order: { key: RawBuilder<unknown>; keyOf: (row: R) => number; descending: boolean },
  cursor: string | undefined,
  limit: number,
): Promise<{ rows: R[]; nextCursor: string | null }> {
  let q = query;
  const dir = sql.raw(order.descending ? 'desc' : 'asc');
  const past = sql.raw(order.descending ? '<' : '>');
  if (cursor !== undefined) {
    const c = decodeCursor(cursor);
    if (!c) throw invalid('cursor', 'Unknown cursor; pass next_cursor from a previous page');
    q = q.where(sql<boolean>`(${order.key} ${past} ${c.at} or (${order.key} = ${c.at} and id ${past} ${c.id}))`);
  }
  const rows = await q
    .orderBy(sql`${order.key} ${dir}`)
    .orderBy(sql`id ${dir}`)
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    rows: page,
    nextCursor: rows.length > limit && last ? encodeCursor({ at: order.keyOf(last), id: last.id }) : null,
  };
}
