import type { MiddlewareHandler } from 'hono';
import type { ApiDeps } from '../api-kit/deps.js';
import { requestHeader } from '../api-kit/node-request.js';
import type { RateLimiter } from '../api-kit/rate-limit.js';
import { AppError } from '../core/errors.js';
import { findMerchantByKey, type Merchant } from '../core/merchants/merchants.js';

export type MerchantEnv = { Variables: { merchant: Merchant; requestId: string } };

/**
 * Requests per client address, before anything else: the keyless document is limited too, and key guessing is
 * throttled before the key is checked.
 */
export function limitPerAddress(
  limiter: RateLimiter,
  clientAddress: (c: Parameters<MiddlewareHandler>[0]) => string,
): MiddlewareHandler<MerchantEnv> {
  return async (c, next) => {
    limiter.take(`ip:${clientAddress(c)}`);
    await next();
  };
}

/**
 * `X-API-Key: sk_...` (API §5). Public `dk_` keys are refused here: they are for the browser drop-in only.
 * Rate limited per merchant once the key proved valid (per client address before, by limitPerAddress): a limit keyed
 * by whatever a client presents would let anyone drain a merchant's budget.
 */
export function requireSecretKey(deps: ApiDeps, limiter: RateLimiter): MiddlewareHandler<MerchantEnv> {
  return async (c, next) => {
    const key = requestHeader(c, 'x-api-key')?.trim();
    if (!key) throw new AppError('UNAUTHORIZED', 'Missing API key: send your secret key in the X-API-Key header');
    if (key.startsWith('dk_')) {
      throw new AppError(
        'UNAUTHORIZED',
        'Public drop-in keys (dk_) only work on /api/dropin/v1; use your secret key (sk_) on /api/v1',
      );
    }
    const found = await findMerchantByKey(deps.db, key, deps.keys, deps.clock.now());
    if (found?.kind !== 'secret') throw new AppError('UNAUTHORIZED', 'Invalid or inactive API key');
    limiter.take(`merchant:${found.merchant.id}`);
    deps.keyUsage.seen(found.keyId);
    c.set('merchant', found.merchant);
    await next();
  };
}
