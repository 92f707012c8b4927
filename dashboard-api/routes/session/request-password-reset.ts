import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { emailSchema } from '../../../api-kit/schemas.js';
import { AppError, toError } from '../../../core/errors.js';
import { TokenBuckets } from '../../../core/token-buckets.js';
import { requestPasswordReset } from '../../../core/users/password-reset.js';
import type { DashCtx, DashEnv } from '../../context.js';

export const passwordResetSchema = z.strictObject({ email: emailSchema });

/** Requests per client address per 15 minutes. */
const PER_CLIENT = 5;

/**
 * POST /password-reset ("Forgot password?"): mails a one-time link to an active user's address. The answer is the
 * same whether or not the address belongs to anyone, and it comes before the store is even read: the lookup, the
 * link and the mail run afterwards, one request after another, so neither the words nor the time of the answer
 * tell an address apart. Limited per client address here and per mailbox in requestPasswordReset.
 */
export function registerRequestPasswordReset(app: Hono<DashEnv>, x: DashCtx): void {
  const perClient = new TokenBuckets(() => x.deps.clock.now());
  let queue: Promise<unknown> = Promise.resolve();
  app.post('/password-reset', async (c) => {
    const { data } = await readJson(c, passwordResetSchema, x.deps.limits.bodyBytes);
    const wait = perClient.take(x.clientAddress(c), PER_CLIENT, 15 * 60_000);
    if (wait > 0)
      throw new AppError('RATE_LIMITED', 'Too many requests from your network address: try again later.', {
        retryAfter: wait,
      });
    queue = queue
      .then(() => requestPasswordReset(x.deps, data.email, x.deps.clock.now()))
      .then((mailed) => {
        if (mailed) x.deps.mail.wake();
      })
      .catch((e) => x.deps.logger.warn('password reset failed', { error: toError(e).message }));
    return ok(
      c,
      null,
      'If this address has a dashboard account, a link to choose a new password is on its way. It works for 30 minutes.',
      202,
    );
  });
}
