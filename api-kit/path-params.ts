import type { Context } from 'hono';
import { notFound } from '../core/errors.js';

/**
 * An id from the path (`pay_...`, `dlv_...`, `key_...`); anything that cannot be one of ours is simply not found,
 * before the store sees it (PostgreSQL refuses some text outright, a NUL byte for one, which would be a 500).
 */
export function idParam(c: Context, name: string, what: string): string {
  const v = c.req.param(name) ?? '';
  if (!/^[a-z]{2,10}_[a-z0-9_]{1,60}$/.test(v)) throw notFound(what);
  return v;
}
