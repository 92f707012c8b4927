import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import { AppError, toError } from '../errors.js';
import { newId } from '../ids.js';
import type { Logger } from '../log.js';
import type { Database } from '../store/schema.js';

/** How long an Idempotency-Key is remembered. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** What `Idempotency-Key` may hold; the OpenAPI document states it as the header's pattern. */
export const IDEMPOTENCY_KEY_RE = /^[\x21-\x7e]{1,255}$/;

export interface StoredResponse {
  status: number;
  body: string;
}

/**
 * A claim whose request has not answered after this long is taken to have died with its process (crash, kill):
 * far beyond any request's life, since clients give up long before.
 */
export const ABANDONED_CLAIM_MS = 60_000;

const IN_PROGRESS = 'A request with this Idempotency-Key is still in progress; retry shortly';

/** What a keyed request does: create the payment under the given id, or answer for one that already exists. */
export interface PaymentWork {
  create(paymentId: string): Promise<StoredResponse>;
  /** The response for the claim's payment if it exists (its request died after creating it), else null. */
  recover(paymentId: string): Promise<StoredResponse | null>;
}

/**
 * `Idempotency-Key` on POSTs: the same key and body replay the first response; the same key with another body is
 * a 422. The key is claimed before the work runs (a concurrent duplicate gets 409 instead of a second payment),
 * naming the payment id it will create, and released when the work fails, so failed attempts write nothing and
 * can be retried with the same key. A claim abandoned by a dead process is resolved on the next retry: its payment
 * is answered if it was created, else created now under the same id (so even a late original would collide on the
 * primary key rather than make a second payment).
 */
export async function withIdempotency(
  db: Kysely<Database>,
  now: number,
  scope: { merchantId: string; key: string | undefined; route: string; rawBody: string },
  work: PaymentWork,
): Promise<StoredResponse & { replayed: boolean }> {
  if (scope.key === undefined) return { ...(await work.create(newId('pay'))), replayed: false };
  if (!IDEMPOTENCY_KEY_RE.test(scope.key)) {
    throw new AppError('BAD_REQUEST', 'Idempotency-Key must be 1 to 255 printable ASCII characters');
  }
  const requestHash = createHash('sha256').update(`${scope.route}\n${scope.rawBody}`).digest('hex');
  const claim: Claim = { merchantId: scope.merchantId, key: scope.key };
  const existing = await db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('merchant_id', '=', claim.merchantId)
    .where('key', '=', claim.key)
    .executeTakeFirst();
  if (existing && now - existing.created_at < IDEMPOTENCY_TTL_MS) {
    if (existing.request_hash !== requestHash || existing.route !== scope.route) {
      throw new AppError('VALIDATION_FAILED', 'Idempotency-Key was already used with a different request', {
        errors: {
          'Idempotency-Key': [
            'This key was already used with a different request body; use a new key for a new request',
          ],
        },
      });
    }
    if (existing.status_code !== 0)
      return { status: existing.status_code, body: existing.response_body, replayed: true };
    if (now - existing.created_at < ABANDONED_CLAIM_MS || existing.payment_id === null)
      throw new AppError('CONFLICT', IN_PROGRESS);
    return resumeAbandoned(db, now, claim, existing.created_at, existing.payment_id, work);
  }
  if (existing) await release(db, claim);
  const paymentId = newId('pay');
  try {
    await db
      .insertInto('idempotency_keys')
      .values({
        merchant_id: scope.merchantId,
        key: scope.key,
        route: scope.route,
        request_hash: requestHash,
        status_code: 0,
        response_body: '',
        created_at: now,
        payment_id: paymentId,
      })
      .execute();
  } catch {
    throw new AppError('CONFLICT', IN_PROGRESS);
  }
  return { ...(await runClaimed(db, claim, () => work.create(paymentId))), replayed: false };
}

/** The claimed key's request died: answer for its payment, or take the claim over (one taker wins) and create it. */
async function resumeAbandoned(
  db: Kysely<Database>,
  now: number,
  claim: Claim,
  claimedAt: number,
  paymentId: string,
  work: PaymentWork,
): Promise<StoredResponse & { replayed: boolean }> {
  const recovered = await work.recover(paymentId);
  if (recovered) {
    await storeResponse(db, claim, recovered);
    return { ...recovered, replayed: true };
  }
  const taken = await db
    .updateTable('idempotency_keys')
    .set({ created_at: now })
    .where('merchant_id', '=', claim.merchantId)
    .where('key', '=', claim.key)
    .where('status_code', '=', 0)
    .where('created_at', '=', claimedAt)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) throw new AppError('CONFLICT', IN_PROGRESS);
  return { ...(await runClaimed(db, claim, () => work.create(paymentId))), replayed: false };
}

interface Claim {
  merchantId: string;
  key: string;
}

/** Runs the claimed work: its response is stored for replays, a failure releases the key. */
async function runClaimed(
  db: Kysely<Database>,
  claim: Claim,
  run: () => Promise<StoredResponse>,
): Promise<StoredResponse> {
  try {
    const res = await run();
    await storeResponse(db, claim, res);
    return res;
  } catch (e) {
    await release(db, claim);
    throw e;
  }
}

async function storeResponse(db: Kysely<Database>, claim: Claim, res: StoredResponse): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status_code: res.status, response_body: res.body })
    .where('merchant_id', '=', claim.merchantId)
    .where('key', '=', claim.key)
    .execute();
}

async function release(db: Kysely<Database>, claim: Claim): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('merchant_id', '=', claim.merchantId)
    .where('key', '=', claim.key)
    .execute();
}

/** Forgets keys older than the TTL. */
export async function purgeIdempotencyKeys(db: Kysely<Database>, now: number): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', now - IDEMPOTENCY_TTL_MS)
    .execute();
}

/** Purges expired keys every hour. Returns the function that stops it. */
export function startIdempotencyPurge(deps: { db: Kysely<Database>; clock: Clock; logger: Logger }): () => void {
  const t = setInterval(
    () => {
      purgeIdempotencyKeys(deps.db, deps.clock.now()).catch((e) =>
        deps.logger.warn('idempotency purge failed', { error: toError(e).message }),
      );
    },
    60 * 60 * 1000,
  );
  t.unref();
  return () => clearInterval(t);
}
