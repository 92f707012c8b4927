import { type SelectQueryBuilder, sql } from 'kysely';
import { invalid } from '../errors.js';

/**
 * Keyset cursors of newest-first lists (payments, webhook deliveries): the (created_at, id) of the last row of the
 * previous page, opaque to clients. Pages stay stable while rows are added, and a page costs an index range scan.
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
export async function newestFirstPage<DB, TB extends keyof DB, R extends { created_at: number; id: string }>(
  query: SelectQueryBuilder<DB, TB, R>,
  cursor: string | undefined,
  limit: number,
): Promise<{ rows: R[]; nextCursor: string | null }> {
  let q = query;
  if (cursor !== undefined) {
    const c = decodeCursor(cursor);
    if (!c) throw invalid('cursor', 'Unknown cursor; pass next_cursor from a previous page');
    q = q.where(sql<boolean>`(created_at < ${c.at} or (created_at = ${c.at} and id < ${c.id}))`);
  }
  const rows = await q
    .orderBy(sql`created_at desc`)
    .orderBy(sql`id desc`)
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    rows: page,
    nextCursor: rows.length > limit && last ? encodeCursor({ at: last.created_at, id: last.id }) : null,
  };
}
