import { timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { ApiDeps } from '../api-kit/deps.js';
import { requestHeader } from '../api-kit/node-request.js';
import { idParam } from '../api-kit/path-params.js';
import type { RateLimiter } from '../api-kit/rate-limit.js';
import { AppError } from '../core/errors.js';
import { getMerchant, type Merchant } from '../core/merchants/merchants.js';
import { type Role, roleIn } from '../core/users/memberships.js';
import { csrfTokenOf, findLiveSession, SESSION_ABSOLUTE_MS } from '../core/users/sessions.js';
import { hasTwoFactor, requiresTwoFactor } from '../core/users/two-factor.js';

/** Who is signed in, as the session middleware found them. */
export interface SignedIn {
  id: string;
  userId: string;
  email: string;
  /** The cookie's token (never stored): the CSRF token derives from it. */
  token: string;
}

export type DashEnv = {
  Variables: { requestId: string; signedIn: SignedIn; merchant: Merchant; role: Role; twoFactor: boolean };
};

export interface DashCtx {
  deps: ApiDeps;
  limiter: RateLimiter;
  clientAddress: (c: Context) => string;
}

/** The cookie holding the session token: sent only to /dashboard paths, never to /api/v1 or /api/dropin/v1. */
export const SESSION_COOKIE = 'dashboard_session';
export const COOKIE_PATH = '/dashboard';
export const CSRF_HEADER = 'x-csrf-token';

export function setSessionCookie(c: Context, deps: ApiDeps, token: string): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: deps.settings.publicUrl.startsWith('https:'),
    path: COOKIE_PATH,
    maxAge: SESSION_ABSOLUTE_MS / 1000,
  });
}

export function clearSessionCookie(c: Context, deps: ApiDeps): void {
  deleteCookie(c, SESSION_COOKIE, { path: COOKIE_PATH, secure: deps.settings.publicUrl.startsWith('https:') });
}

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Every dashboard API request: rate limited per client address first; API keys refused (the dashboard works with
 * a signed-in session only, and keys belong on /api/v1 and /api/dropin/v1); a change must come from the service's
 * own origin when the browser names one (SameSite=Lax alone lets top-level POSTs of other sites through in some
 * browsers; the CSRF token below is the real check).
 */
export function guard(x: DashCtx): MiddlewareHandler<DashEnv> {
  const self = new URL(x.deps.settings.publicUrl).origin;
  return async (c, next) => {
    x.limiter.take(`ip:${x.clientAddress(c)}`);
    if (requestHeader(c, 'x-api-key') !== undefined || requestHeader(c, 'authorization') !== undefined) {
      throw new AppError(
        'UNAUTHORIZED',
        'The dashboard takes no API keys: sign in with your e-mail address and password. Secret keys (sk_) work on /api/v1 only, public keys (dk_) on /api/dropin/v1 only.',
      );
    }
    const origin = requestHeader(c, 'origin');
    if (CHANGES.has(c.req.method) && origin !== undefined && origin !== self)
      throw new AppError('FORBIDDEN', `Changes are accepted only from the dashboard's own origin (${self})`);
    await next();
  };
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * A signed-in session from the cookie (401 without one: expired, signed out, or never signed in), and on every
 * change its CSRF token in `X-CSRF-Token` (403 without it): a page of another site can make the browser send the
 * cookie, but it cannot read the token.
 */
export function requireSession(x: DashCtx): MiddlewareHandler<DashEnv> {
  return async (c, next) => {
    const token = getCookie(c, SESSION_COOKIE);
    const found = token ? await findLiveSession(x.deps.db, token, x.deps.clock.now()) : undefined;
    if (!token || !found) {
      if (token) clearSessionCookie(c, x.deps);
      throw new AppError('UNAUTHORIZED', 'Not signed in, or your session expired: sign in again');
    }
    if (CHANGES.has(c.req.method) && !sameText(requestHeader(c, CSRF_HEADER) ?? '', csrfTokenOf(token)))
      throw new AppError('FORBIDDEN', 'Missing or wrong CSRF token (X-CSRF-Token): reload the dashboard and try again');
    x.limiter.take(`session:${found.id}`);
    c.set('signedIn', { ...found, token });
    await next();
  };
}

/**
 * The routes of a merchant a cashier reaches (every other is 403, whatever the method): the point of sale (taking a
 * payment, reading its status, today's sales), the live event stream its status screen follows, and the assets.
 */
const CASHIER_ROUTES = /\/merchants\/[\w-]+\/(?:events|assets|pos\/payments(?:\/[\w-]+)?|pos\/sales)$/;

/**
 * A merchant that requires two-factor refuses its members without it (403) until they turn it on; answers whether
 * the user has it.
 */
export async function refuseWithoutTwoFactor(x: DashCtx, userId: string, merchantId: string): Promise<boolean> {
  const twoFactor = await hasTwoFactor(x.deps.db, userId);
  if (!twoFactor && (await requiresTwoFactor(x.deps.db, merchantId)))
    throw new AppError(
      'FORBIDDEN',
      'This merchant requires two-factor sign-in: turn it on under Account security, then come back',
    );
  return twoFactor;
}

/**
 * Routes of one merchant (`/merchants/:merchant_id/...`): the signed-in user must belong to it, else it reads as
 * not found, like any resource of another merchant. Reading is for every member; only an owner changes anything.
 * Cashiers reach the point of sale only (CASHIER_ROUTES). A merchant that requires two-factor refuses members
 * without it (403) until they turn it on.
 */
export function requireMember(x: DashCtx): MiddlewareHandler<DashEnv> {
  return async (c, next) => {
    const merchantId = idParam(c, 'merchant_id', 'Merchant');
    const role = await roleIn(x.deps.db, c.get('signedIn').userId, merchantId);
    const merchant = role ? await getMerchant(x.deps.db, merchantId) : undefined;
    if (!role || !merchant) throw new AppError('NOT_FOUND', 'Merchant not found');
    const twoFactor = await refuseWithoutTwoFactor(x, c.get('signedIn').userId, merchantId);
    if (role === 'cashier' && !CASHIER_ROUTES.test(c.req.path))
      throw new AppError(
        'FORBIDDEN',
        "Cashiers take payments at the point of sale and see today's sales; refunds, exports, keys and settings are for an owner of this merchant",
      );
    if (role === 'viewer' && CHANGES.has(c.req.method))
      throw new AppError('FORBIDDEN', 'Viewers can read but not change anything; ask an owner of this merchant');
    c.set('merchant', merchant);
    c.set('role', role);
    c.set('twoFactor', twoFactor);
    await next();
  };
}
