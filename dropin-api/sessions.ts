import { createHash } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { newId, secretToken } from '../core/ids.js';
import type { Database, DropinSessionTable } from '../core/store/schema.js';

export type DropinSession = Selectable<DropinSessionTable>;

/** How long a drop-in session accepts asset choices and retries; its payments keep their own expiry. */
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

/** Session tokens carry 256 bits of entropy, so one SHA-256 is a sound at-rest hash (as for API keys). */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface NewSession {
  merchantId: string;
  priceAmount: string;
  priceCurrency: string;
  cryptoCurrency: string | null;
  email: string;
  name: string | null;
  reference: string | null;
  origin: string | null;
  now: number;
}

/** Stores a session and returns it with its token, which is shown once (to the browser that asked) and kept hashed. */
export async function insertSession(
  db: Kysely<Database>,
  s: NewSession,
): Promise<{ session: DropinSession; token: string }> {
  // 128 random bits: unguessable for a token that lives a day behind per-address rate limits, and 21 bytes
  // shorter than 256 bits in the answer the popup waits for before its QR.
  const token = `cs_${secretToken(16)}`;
  const session: DropinSession = {
    id: newId('ses', 16),
    merchant_id: s.merchantId,
    token_hash: hashSessionToken(token),
    price_amount: s.priceAmount,
    price_currency: s.priceCurrency,
    crypto_currency: s.cryptoCurrency,
    customer_email: s.email,
    customer_name: s.name,
    reference: s.reference,
    origin: s.origin,
    payment_id: null,
    created_at: s.now,
    updated_at: s.now,
    expires_at: s.now + SESSION_TTL_MS,
  };
  await db.insertInto('dropin_sessions').values(session).execute();
  return { session, token };
}

export async function findSessionByToken(db: Kysely<Database>, token: string): Promise<DropinSession | undefined> {
  return db
    .selectFrom('dropin_sessions')
    .selectAll()
    .where('token_hash', '=', hashSessionToken(token))
    .executeTakeFirst();
}

/** Points the session at its current payment (the first one, or the new one after a retry). */
export async function setSessionPayment(
  db: Kysely<Database>,
  sessionId: string,
  paymentId: string,
  cryptoCurrency: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('dropin_sessions')
    .set({ payment_id: paymentId, crypto_currency: cryptoCurrency, updated_at: now })
    .where('id', '=', sessionId)
    .execute();
}
