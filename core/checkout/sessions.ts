import { createHash } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { CoreDeps } from '../deps.js';
import { AppError } from '../errors.js';
import { newId, secretToken } from '../ids.js';
import type { Merchant } from '../merchants/merchants.js';
import { type FiatCode, fiatCode } from '../money/fiat.js';
import { expireAbandoned } from '../payments/abandon.js';
import { stateChanges } from '../payments/changes.js';
import { createPayment, type NewPayment } from '../payments/create-payment.js';
import type { Payment } from '../payments/payment.js';
import type { Database, DropinSessionTable } from '../store/schema.js';

/*
 * Drop-in checkout sessions (docs/architecture.md drop-in contract): created server-side from a merchant's public key, read
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
  priceCurrency: FiatCode;
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
    // Without a payment yet, nothing is abandoned: the customer may still go back to an earlier popup's quote.
    await deps.db.insertInto('dropin_sessions').values(session).execute();
    return { session, token, payment: null };
  }
  const expired: Payment[] = [];
  const payment = await createPayment(
    deps,
    merchant,
    {
      ...s.payment,
      priceAmount: s.priceAmount,
      priceCurrency: s.priceCurrency,
      email: s.email,
      name: s.name ?? undefined,
      orderId: s.reference ?? undefined,
    },
    async (trx, p) => {
      Object.assign(session, { payment_id: p.id, crypto_currency: p.pay_currency });
      await trx.insertInto('dropin_sessions').values(session).execute();
      expired.push(...(await expireEarlierChoices(trx, deps, session, p.created_at)));
    },
  );
  deps.changes.publish(stateChanges(expired));
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
 * Expires the payment a checkout's new choice replaces, in the new payment's transaction. choosePayment refused a
 * payment with money on the way before it began; one that received money since is refused here (409), which rolls
 * the new payment back. Returns what changed, to publish after commit.
 */
export async function expireReplaced(
  trx: Kysely<Database>,
  deps: Pick<CoreDeps, 'chains'>,
  previous: string,
  now: number,
): Promise<Payment[]> {
  const r = await expireAbandoned(trx, previous, now, deps.chains);
  if (r && r.payment.status !== 'expired' && r.payment.status !== 'failed') {
    throw new AppError(
      'CONFLICT',
      `This checkout already received a payment (status ${r.payment.status}); it cannot start another one`,
    );
  }
  return r?.changed ? [r.payment] : [];
}

/**
 * The payments a session's new payment replaces, expired in its transaction (README, drop-in: abandoned choices):
 * the session's own earlier payment, and the waiting payments of this merchant's other sessions for the same order
 * reference (the popup was closed and the order opened again). Another session's payment with money on the way is
 * left as it is. Returns the payments that changed, to publish after commit.
 */
async function expireEarlierChoices(
  trx: Kysely<Database>,
  deps: Pick<CoreDeps, 'chains'>,
  session: Pick<DropinSession, 'id' | 'merchant_id' | 'reference' | 'payment_id'>,
  now: number,
  previous: string | null = null,
): Promise<Payment[]> {
  const changed = previous ? await expireReplaced(trx, deps, previous, now) : [];
  if (session.reference === null) return changed;
  const others = await trx
    .selectFrom('payments')
    .select('id')
    .where('merchant_id', '=', session.merchant_id)
    .where('order_id', '=', session.reference)
    .where('status', '=', 'waiting')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('dropin_sessions')
          .select('dropin_sessions.id')
          .whereRef('dropin_sessions.payment_id', '=', 'payments.id')
          .where('dropin_sessions.id', '!=', session.id),
      ),
    )
    .execute();
  for (const { id } of others) {
    const r = await expireAbandoned(trx, id, now, deps.chains);
    if (r?.changed) changed.push(r.payment);
  }
  return changed;
}

/**
 * The customer chose an asset (or retries after expiry): a new payment for the session's price, and the session
 * pointing at it, in one transaction that also expires the choices it replaces (expireEarlierChoices).
 */
export async function createSessionPayment(
  deps: CoreDeps,
  merchant: Merchant,
  session: DropinSession,
  currency: string,
  originIp: string,
): Promise<Payment> {
  const expired: Payment[] = [];
  const payment = await createPayment(
    deps,
    merchant,
    {
      kind: 'direct',
      priceAmount: session.price_amount,
      // Sessions before 0019 were all USD, and store it so.
      priceCurrency: fiatCode(session.price_currency) ?? 'USD',
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
      expired.push(...(await expireEarlierChoices(trx, deps, session, p.created_at, session.payment_id)));
    },
  );
  deps.changes.publish(stateChanges(expired));
  return payment;
}
