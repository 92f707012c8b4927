import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { stringifyJson } from '../core/money/decimal.js';

/**
 * The spec's success envelope. Bodies go through `stringifyJson` so exact amounts (`Decimal`) keep their digits.
 */
export function ok(c: Context, data: unknown, message = 'OK', status: ContentfulStatusCode = 200): Response {
  return jsonText(c, okText(data, message), status);
}

/** The success envelope as JSON text, for a handler that keeps the text of an answer it gives often. */
export function okText(data: unknown, message = 'OK'): string {
  return stringifyJson({ success: true, message, data });
}

export function json(
  c: Context,
  body: unknown,
  status: ContentfulStatusCode = 200,
  headers: Record<string, string> = {},
): Response {
  return jsonText(c, stringifyJson(body), status, headers);
}

export function jsonText(
  c: Context,
  text: string,
  status: ContentfulStatusCode = 200,
  headers: Record<string, string> = {},
): Response {
  return c.body(text, status, { 'content-type': 'application/json; charset=utf-8', ...headers });
}
