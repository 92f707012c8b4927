import type { Handler, Hono, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { AppError } from '../core/errors.js';

/** The handlers answerOtherMethods registered, told apart from middleware on the same path by identity. */
const methodAnswers = new WeakSet<object>();

/**
 * Answers 405 (with `Allow`, which HTTP requires on a 405) on every registered path for the methods it does not
 * serve, and 204 to OPTIONS, so a wrong verb is told apart from a wrong path. Call after the routes of `app` are
 * registered: it reads them back. Paths already answered by an earlier call are left as they are, so an app can
 * answer its keyless paths before its key middleware and the rest after.
 */
// biome-ignore lint/suspicious/noExplicitAny: Hono's env generics vary per sub-app
export function answerOtherMethods(app: Hono<any>): void {
  const methods = new Map<string, Set<string>>();
  const answered = new Set<string>();
  for (const r of app.routes) {
    if (r.method === 'ALL') {
      if (methodAnswers.has(r.handler)) answered.add(r.path);
      continue; // middleware
    }
    const set = methods.get(r.path) ?? new Set<string>();
    set.add(r.method);
    methods.set(r.path, set);
  }
  for (const [path, set] of methods) {
    if (answered.has(path)) continue;
    const allow = [...set, ...(set.has('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
    const answer: Handler = (c) => {
      if (c.req.method === 'OPTIONS') return c.body(null, 204, { allow });
      // Set on the context, not the error: the one error renderer builds its answer from this same context.
      c.header('allow', allow);
      throw new AppError(
        'METHOD_NOT_ALLOWED',
        `Method ${c.req.method} is not allowed on ${c.req.path}; allowed: ${allow}`,
      );
    };
    methodAnswers.add(answer);
    app.all(path, answer);
  }
}

/**
 * 404 for a path no route serves, before a key is asked for: the paths are public (the OpenAPI document lists them),
 * so refusing an unknown one with 401 hides nothing and tells a client with a typo in the path to fix its key.
 * Middleware is registered on wildcard paths; any other matched route means the path exists (405 answers the rest).
 */
export const refuseUnknownRoutes: MiddlewareHandler = async (c, next) => {
  if (!matchedRoutes(c).some((r) => !r.path.endsWith('*')))
    throw new AppError('NOT_FOUND', `No route for ${c.req.method} ${c.req.path}`);
  await next();
};
