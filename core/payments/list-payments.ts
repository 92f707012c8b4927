import type { CoreDeps } from '../deps.js';
import { invalid } from '../errors.js';
import type { Payment } from './payment.js';

export interface ListFilter {
  status?: string | undefined;
  createdFrom?: number | undefined;
  createdTo?: number | undefined;
  limit: number;
  cursor?: string | undefined;
}

/** Opaque cursor: the (created_at, id) of the last row of the previous page. */
export function encodeCursor(p: Pick<Payment, 'created_at' | 'id'>): string {
  return Buffer.from(`${p.created_at}:${p.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: number; id: string } {
  const text = Buffer.from(cursor, 'base64url').toString();
  const m = /^(\d+):([a-z0-9_]+)$/.exec(text);
  if (!m) throw invalid('cursor', 'Invalid cursor');
  return { createdAt: Number(m[1]), id: m[2] as string };
}

/**
 * A merchant's payments, newest first, with keyset pagination so pages stay stable while payments are created.
 */
export async function listPayments(
  deps: Pick<CoreDeps, 'db'>,
  merchantId: string,
  f: ListFilter,
): Promise<{ payments: Payment[]; nextCursor: string | null }> {
  let q = deps.db.selectFrom('payments').selectAll().where('merchant_id', '=', merchantId);
  if (f.status) q = q.where('status', '=', f.status);
  if (f.createdFrom !== undefined) q = q.where('created_at', '>=', f.createdFrom);
  if (f.createdTo !== undefined) q = q.where('created_at', '<', f.createdTo);
  if (f.cursor) {
    const c = decodeCursor(f.cursor);
    q = q.where((eb) =>
      eb.or([eb('created_at', '<', c.createdAt), eb.and([eb('created_at', '=', c.createdAt), eb('id', '<', c.id)])]),
    );
  }
  const rows = await q
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(f.limit + 1)
    .execute();
  const page = rows.slice(0, f.limit);
  const last = page[page.length - 1];
  return { payments: page, nextCursor: rows.length > f.limit && last ? encodeCursor(last) : null };
}
