import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { stringifyJson } from '../core/money/decimal.js';

/** The API's success envelope (docs/architecture.md). */
export function ok(c: Context, data: unknown, message = 'OK', status: ContentfulStatusCode = 200): Response {
  return json(c, { success: true, message, data }, status);
}

/** A JSON answer. Bodies go through `stringifyJson` so exact amounts (`Decimal`) keep their digits. */
export function json(
  c: Context,
  body: unknown,
  status: ContentfulStatusCode = 200,
  headers: Record<string, string> = {},
): Response {
  return c.body(stringifyJson(body), status, { 'content-type': 'application/json; charset=utf-8', ...headers });
}
