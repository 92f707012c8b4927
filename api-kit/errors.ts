import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { AppError, type FieldErrors, toError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { json } from './envelope.js';

/** Zod issues -> the spec's `errors` map: field name -> messages. Unknown fields are named one by one. */
export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  const add = (field: string, msg: string) => {
    const list = out[field] ?? [];
    list.push(msg);
    out[field] = list;
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) add([...issue.path, k].join('.'), 'Unknown field');
      continue;
    }
    add(issue.path.length > 0 ? issue.path.join('.') : '_body', issue.message);
  }
  return out;
}

export function validationError(error: z.ZodError): AppError {
  return new AppError('VALIDATION_FAILED', 'Validation failed', { errors: zodFieldErrors(error) });
}

/**
 * The one renderer of failures: the spec envelope (`success: false`, `message`, `errors` on 422) plus `code`
 * and `request_id`. Unknown errors become a generic 500; their detail goes to the log only.
 */
export function renderError(logger: Logger) {
  return (e: unknown, c: Context): Response => {
    const requestId = (c.get('requestId' as never) as string | undefined) ?? '';
    let err: AppError;
    if (e instanceof AppError) err = e;
    else if (e instanceof HTTPException && e.status < 500) err = new AppError(codeForStatus(e.status), e.message || 'Bad request');
    else {
      const error = toError(e);
      logger.error('unhandled error', { request_id: requestId, method: c.req.method, path: c.req.path, error });
      err = new AppError('INTERNAL', 'Internal server error; if you were creating a payment, check whether it was created before retrying');
    }
    const headers: Record<string, string> = {};
    if (err.retryAfter !== undefined) headers['retry-after'] = String(err.retryAfter);
    return json(
      c,
      { success: false, message: err.message, code: err.code, request_id: requestId, ...(err.errors ? { errors: err.errors } : {}) },
      err.status as ContentfulStatusCode,
      headers,
    );
  };
}

function codeForStatus(status: number): AppError['code'] {
  switch (status) {
    case 401:
      return 'UNAUTHORIZED';
    case 404:
      return 'NOT_FOUND';
    case 405:
      return 'METHOD_NOT_ALLOWED';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 429:
      return 'RATE_LIMITED';
    default:
      return 'BAD_REQUEST';
  }
}
