import type { Hono } from 'hono';
import { AppError } from '../core/errors.js';

/**
 * Answers 405 (with `Allow`) on every registered path for the methods it does not serve, and 204 to OPTIONS, so a
 * wrong verb is told apart from a wrong path. Call after every route of `app` is registered: it reads them back.
 */
// biome-ignore lint/suspicious/noExplicitAny: Hono's env generics vary per sub-app
export function answerOtherMethods(app: Hono<any>): void {
  const methods = new Map<string, Set<string>>();
  for (const r of app.routes) {
    if (r.method === 'ALL') continue; // middleware
    const set = methods.get(r.path) ?? new Set<string>();
    set.add(r.method);
    methods.set(r.path, set);
  }
  for (const [path, set] of methods) {
    const allow = [...set, ...(set.has('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
    app.all(path, (c) => {
      if (c.req.method === 'OPTIONS') return c.body(null, 204, { allow });
      throw new AppError(
        'METHOD_NOT_ALLOWED',
        `Method ${c.req.method} is not allowed on ${c.req.path}; allowed: ${allow}`,
      );
    });
  }
}
