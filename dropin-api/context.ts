import type { Context, MiddlewareHandler } from 'hono';
import { readJsonObject } from '../api-kit/body.js';
import type { ApiDeps } from '../api-kit/deps.js';
import { requestHeader } from '../api-kit/node-request.js';
import type { RateLimiter } from '../api-kit/rate-limit.js';
import { type Checkout, checkoutId, resolveCheckout } from '../core/checkout/checkout.js';
import { AppError, fieldErrors } from '../core/errors.js';
import { findMerchantByKey, type Merchant } from '../core/merchants/merchants.js';
import { assertOrigin } from './origins.js';

export type DropinEnv = {
  Variables: {
    merchant: Merchant;
    checkout: Checkout;
    requestId: string;
    /** POST /sessions: the JSON body read by requireSessionKey, without its `public_key`. */
    body: Record<string, unknown>;
  };
};

export interface DropinCtx {
  deps: ApiDeps;
  limiter: RateLimiter;
  clientAddress: (c: Context) => string;
  /** Origins of the service's own pages (hosted page, demo), always allowed. */
  selfOrigins: () => string[];
}

const SECRET_KEY_MESSAGE =
  'Secret keys (sk_) must never reach a browser: the drop-in takes your public key (dk_). Rotate this secret key now if it was published (admin CLI: key rotate).';

/**
 * A public key is shared by every customer of a merchant (it is in the shop's page), so its own limit is this many
 * times the per-address rate: one address (which the per-address limit holds to 1x) can never exhaust it.
 */
export const PUBLIC_KEY_CEILING = 20;

/**
 * GET /currencies: `Authorization: Bearer dk_...` (a merchant's own picker; the popup's list comes with its session).
 */
export function requirePublicKey(x: DropinCtx): MiddlewareHandler<DropinEnv> {
  return async (c, next) => {
    x.limiter.take(`ip:${x.clientAddress(c)}`);
    await admitPublicKey(x, c, bearer(c), 'send Authorization: Bearer dk_...');
    await next();
  };
}

/**
 * POST /sessions: the key travels in the JSON body as `public_key`, and the popup sends that body as text/plain,
 * so a shop's page reaches us with one CORS-simple request (no preflight: one round trip per tap), and the key is
 * never in a URL (access logs keep URLs). `Authorization: Bearer` is taken too, for callers that are not pages;
 * sent both ways, the two must agree. The rest of the body is left to the route as `c.get('body')`.
 */
export function requireSessionKey(x: DropinCtx): MiddlewareHandler<DropinEnv> {
  return async (c, next) => {
    x.limiter.take(`ip:${x.clientAddress(c)}`);
    const { public_key: inBody, ...rest } = (await readJsonObject(c, x.deps.limits.bodyBytes, { plainText: true }))
      .value;
    if (inBody !== undefined && typeof inBody !== 'string') {
      const errors = fieldErrors();
      errors.public_key = ['Must be your public key (dk_...) as a string'];
      throw new AppError('VALIDATION_FAILED', 'Validation failed', { errors });
    }
    const header = bearer(c);
    if (inBody !== undefined && header !== undefined && inBody !== header)
      throw new AppError('BAD_REQUEST', "Two different keys: send the public key once, as the body's public_key");
    await admitPublicKey(x, c, inBody ?? header, "send it as the body's public_key (dk_...)");
    c.set('body', rest);
    await next();
  };
}

/**
 * A public key and the request's origin, checked. Rate limits: every request per client address before the key
 * is checked (the callers take it), so invalid keys count against their sender only; then, once the key proved
 * valid, the key's own generous ceiling (never keyed by what a client merely presents).
 */
async function admitPublicKey(
  x: DropinCtx,
  c: Context<DropinEnv>,
  key: string | undefined,
  /** How this route takes the key, for the 401 of a request without one. */
  howToSend: string,
): Promise<void> {
  if (!key) throw new AppError('UNAUTHORIZED', `Missing public key: ${howToSend}`);
  if (key.startsWith('sk_')) throw new AppError('UNAUTHORIZED', SECRET_KEY_MESSAGE);
  if (!key.startsWith('dk_')) throw new AppError('UNAUTHORIZED', 'Invalid public key: drop-in keys start with dk_');
  const found = await findMerchantByKey(x.deps.db, key, x.deps.keys, x.deps.clock.now());
  if (found?.kind !== 'public') throw new AppError('UNAUTHORIZED', 'Invalid or inactive public key');
  x.limiter.take(`public-key:${found.merchant.id}`, PUBLIC_KEY_CEILING);
  assertOrigin(found.merchant, requestHeader(c, 'origin'), x.selfOrigins());
  x.deps.keyUsage.seen(found.keyId);
  c.set('merchant', found.merchant);
}

/**
 * Session-token routes: the token is in the path (EventSource cannot send headers). Unknown and expired read as 404.
 * Rate limited per client address, then per checkout once the token proved valid.
 */
export function requireCheckout(x: DropinCtx): MiddlewareHandler<DropinEnv> {
  return async (c, next) => {
    x.limiter.take(`ip:${x.clientAddress(c)}`);
    const checkout = await resolveCheckout(x.deps, c.req.param('token') ?? '');
    if (!checkout) throw new AppError('NOT_FOUND', 'Checkout session not found or expired');
    x.limiter.take(`checkout:${checkoutId(checkout)}`);
    assertOrigin(checkout.merchant, requestHeader(c, 'origin'), x.selfOrigins());
    c.set('merchant', checkout.merchant);
    c.set('checkout', checkout);
    await next();
  };
}

function bearer(c: Context): string | undefined {
  const h = requestHeader(c, 'authorization')?.trim();
  if (!h) return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m?.[1];
}
