import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { AppError } from '../core/errors.js';
import type { Database } from '../core/store/schema.js';

/** How long an Idempotency-Key is remembered. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const KEY_RE = /^[\x21-\x7e]{1,255}$/;

export interface StoredResponse {
  status: number;
  body: string;
}

/**
 * `Idempotency-Key` on POSTs: the same key and body replay the first response; the same key with another body is
 * a 422. The key is claimed before the work runs (a concurrent duplicate gets 409 instead of a second payment)
 * and released when the work fails, so failed attempts write nothing and can be retried with the same key.
 */
export async function withIdempotency(
  db: Kysely<Database>,
  now: number,
  scope: { merchantId: string; key: string | undefined; route: string; rawBody: string },
  work: () => Promise<StoredResponse>,
): Promise<StoredResponse & { replayed: boolean }> {
  if (scope.key === undefined) return { ...(await work()), replayed: false };
  if (!KEY_RE.test(scope.key)) {
    throw new AppError('BAD_REQUEST', 'Idempotency-Key must be 1 to 255 printable ASCII characters');
  }
  const requestHash = createHash('sha256').update(`${scope.route}\n${scope.rawBody}`).digest('hex');
  const existing = await db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('merchant_id', '=', scope.merchantId)
    .where('key', '=', scope.key)
    .executeTakeFirst();
  if (existing && now - existing.created_at < IDEMPOTENCY_TTL_MS) {
    if (existing.request_hash !== requestHash || existing.route !== scope.route) {
      throw new AppError('VALIDATION_FAILED', 'Idempotency-Key was already used with a different request', {
        errors: { 'Idempotency-Key': ['This key was already used with a different request body; use a new key for a new request'] },
      });
    }
    if (existing.status_code === 0) throw new AppError('CONFLICT', 'A request with this Idempotency-Key is still in progress; retry shortly');
    return { status: existing.status_code, body: existing.response_body, replayed: true };
  }
  if (existing) await db.deleteFrom('idempotency_keys').where('merchant_id', '=', scope.merchantId).where('key', '=', scope.key).execute();
  try {
    await db
      .insertInto('idempotency_keys')
      .values({ merchant_id: scope.merchantId, key: scope.key, route: scope.route, request_hash: requestHash, status_code: 0, response_body: '', created_at: now })
      .execute();
  } catch {
    throw new AppError('CONFLICT', 'A request with this Idempotency-Key is still in progress; retry shortly');
  }
  try {
    const res = await work();
    await db
      .updateTable('idempotency_keys')
      .set({ status_code: res.status, response_body: res.body })
      .where('merchant_id', '=', scope.merchantId)
      .where('key', '=', scope.key)
      .execute();
    return { ...res, replayed: false };
  } catch (e) {
    await db.deleteFrom('idempotency_keys').where('merchant_id', '=', scope.merchantId).where('key', '=', scope.key).execute();
    throw e;
  }
}

/** Forgets keys older than the TTL; run periodically by the service. */
export async function purgeIdempotencyKeys(db: Kysely<Database>, now: number): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('created_at', '<', now - IDEMPOTENCY_TTL_MS).execute();
}
