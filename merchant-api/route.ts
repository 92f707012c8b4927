import type { Context, Handler } from 'hono';
import type { ApiDeps } from '../api-kit/deps.js';
import type { MerchantEnv } from './auth.js';
import type { Operation } from './openapi/operation.js';

/** What a route's handler is built from: the API's parts and how the service reads a client's address. */
export type ClientAddress = (c: Context) => string;

/**
 * One /api/v1 route, declared once: the app serves `handler` at `method` `path` and the OpenAPI document describes
 * the same declaration, so a route cannot be served without being documented, nor documented at another path.
 */
export interface MerchantRoute extends Operation {
  handler: (deps: ApiDeps, clientAddress: ClientAddress) => Handler<MerchantEnv>;
}

/** The route's path as Hono reads it: OpenAPI's `/payments/{payment_id}` is Hono's `/payments/:payment_id`. */
export function honoPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/**
 * The routes in the order the app registers them: Hono tries routes in registration order, so a literal segment must
 * come before a parameter in the same place (`/webhook-deliveries/test` before `/webhook-deliveries/{delivery_id}`,
 * or the 405 answers of the latter's path would take the former's). The sort is stable: nothing else moves.
 */
export function servingOrder(routes: readonly MerchantRoute[]): MerchantRoute[] {
  const key = (r: MerchantRoute) =>
    r.path
      .split('/')
      .map((s) => (s.startsWith('{') ? '1' : '0'))
      .join('');
  return [...routes].sort((a, b) => key(a).localeCompare(key(b)));
}
