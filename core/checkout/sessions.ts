import { createHash } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { CoreDeps } from '../deps.js';
import { newId, secretToken } from '../ids.js';
import type { Merchant } from '../merchants/merchants.js';
import { createPayment, type NewPayment } from '../payments/create-payment.js';
import type { Payment } from '../payments/payment.js';
import type { Database, DropinSessionTable } from '../store/schema.js';

/*
 * Drop-in checkout sessions (DESIGN.md drop-in contract): created server-side from a merchant's public key, read
 * only with their token (stored hashed), pointing at the payment the customer is paying now.
 */

type Db = Kysely<Database>;
export type DropinSession = Selectable<DropinSessionTable>;

/** How long a drop-in session accepts asset choices and retries; its payments keep their own expiry. */
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

/** Session tokens carry 128 random bits, so one SHA-256 is a sound at-rest hash (as for API keys). */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface NewSession {
  priceAmount: string;
  priceCurrency: string;
  email: string;
  name: string | null;
  reference: string | null;
  origin: string | null;
  /** The asset the merchant preset: the session's payment is created with it, in the same transaction. */
  payment: Omit<NewPayment, 'priceAmount' | 'email' | 'name' | 'orderId'> | null;
}

/**
 * Opens a session, and with a preset asset its payment, in one transaction: a refused payment (below the minimum,
 * say) leaves no session behind. The token is returned once (to the browser that asked) and kept hashed.
 */
export async function openSession(
  deps: CoreDeps,
  merchant: Merchant,
  s: NewSession,
): Promise<{ session: DropinSession; token: string; payment: Payment | null }> {
  // 128 random bits: unguessable for a token that lives a day behind per-address rate limits.
  const token = `cs_${secretToken(16)}`;
  const now = deps.clock.now();
  const session: DropinSession = {
    id: newId('ses', 16),
    merchant_id: merchant.id,
    token_hash: hashSessionToken(token),
    price_amount: s.priceAmount,
    price_currency: s.priceCurrency,
    crypto_currency: null,
    customer_email: s.email,
    customer_name: s.name,
    reference: s.reference,
    origin: s.origin,
    payment_id: null,
    created_at: now,
    updated_at: now,
    expires_at: now + SESSION_TTL_MS,
  };
  if (!s.payment) {
    await deps.db.insertInto('dropin_sessions').values(session).execute();
    return { session, token, payment: null };
  }
  const payment = await createPayment(
    deps,
    merchant,
    {
      ...s.payment,
      priceAmount: s.priceAmount,
      email: s.email,
      name: s.name ?? undefined,
      orderId: s.reference ?? undefined,
    },
    async (trx, p) => {
      Object.assign(session, { payment_id: p.id, crypto_currency: p.pay_currency });
      await trx.insertInto('dropin_sessions').values(session).execute();
    },
  );
  return { session, token, payment };
}

export function findSessionByToken(db: Db, token: string): Promise<DropinSession | undefined> {
  return db
    .selectFrom('dropin_sessions')
    .selectAll()
    .where('token_hash', '=', hashSessionToken(token))
    .executeTakeFirst();
}

/**
 * The customer chose an asset (or retries after expiry): a new payment for the session's price, and the session
 * pointing at it, in one transaction.
 */
export async function createSessionPayment(
  deps: CoreDeps,
  merchant: Merchant,
  session: DropinSession,
  currency: string,
  originIp: string,
): Promise<Payment> {
  return createPayment(
    deps,
    merchant,
    {
      kind: 'direct',
      priceAmount: session.price_amount,
      currency,
      email: session.customer_email,
      name: session.customer_name ?? undefined,
      orderId: session.reference ?? undefined,
      originIp,
    },
    async (trx, p) => {
      await trx
        .updateTable('dropin_sessions')
        .set({ payment_id: p.id, crypto_currency: p.pay_currency, updated_at: p.created_at })
        .where('id', '=', session.id)
        .execute();
    },
  );
}
