import type { Context, Handler, Hono } from 'hono';
import { AppError } from '../core/errors.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Registers handlers for one path and answers 405 (with `Allow`) for any other method on it, so a wrong verb is
 * told apart from a wrong path.
 */
// biome-ignore lint/suspicious/noExplicitAny: Hono's env generics vary per sub-app
export function route<A extends Hono<any>>(app: A, path: string, handlers: Partial<Record<Method, Handler>>): void {
  const methods = Object.keys(handlers) as Method[];
  for (const m of methods) app.on(m, path, handlers[m] as Handler);
  const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
  app.all(path, (c: Context) => {
    if (c.req.method === 'OPTIONS') return c.body(null, 204, { allow });
    throw new AppError(
      'METHOD_NOT_ALLOWED',
      `Method ${c.req.method} is not allowed on ${c.req.path}; allowed: ${allow}`,
    );
  });
}
