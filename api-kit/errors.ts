import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { AppError, type FieldErrors, fieldErrors, toError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { json } from './envelope.js';

/**
 * Zod issues -> the API's `errors` map: field name -> messages. Unknown fields are named one by one. Field names
 * come from the request, so the map has no prototype: `constructor` or `__proto__` are fields like any other.
 */
export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const out = fieldErrors();
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

/**
 * The client went away before its request body arrived: nobody reads the answer, and nothing went wrong here, so it
 * is logged at debug level, not as a failure (renderError below).
 */
export class RequestAbortedError extends AppError {
  constructor() {
    super('BAD_REQUEST', 'The request body did not arrive: the client closed the connection');
    this.name = 'RequestAbortedError';
  }
}

export function validationError(error: z.ZodError): AppError {
  return new AppError('VALIDATION_FAILED', 'Validation failed', { errors: zodFieldErrors(error) });
}

/**
 * The one renderer of failures: the API's envelope (`success: false`, `message`, `errors` on 422) plus `code`
 * and `request_id`. Unknown errors become a generic 500; their detail goes to the log only.
 */
export function renderError(logger: Logger) {
  return (e: unknown, c: Context): Response => {
    const requestId = (c.get('requestId' as never) as string | undefined) ?? '';
    let err: AppError;
    if (e instanceof RequestAbortedError) {
      logger.debug('request aborted by the client', {
        request_id: requestId,
        method: c.req.method,
        path: loggablePath(c.req.path),
      });
      err = e;
    } else if (e instanceof AppError) err = e;
    else if (e instanceof HTTPException && e.status < 500)
      err = new AppError(codeForStatus(e.status), e.message || 'Bad request');
    else {
      const error = toError(e);
      logger.error('unhandled error', {
        request_id: requestId,
        method: c.req.method,
        path: loggablePath(c.req.path),
        error,
      });
      err = new AppError(
        'INTERNAL',
        'Internal server error; if you were creating a payment, check whether it was created before retrying',
      );
    }
    const headers: Record<string, string> = {};
    if (err.retryAfter !== undefined) headers['retry-after'] = String(err.retryAfter);
    return json(
      c,
      {
        success: false,
        message: err.message,
        code: err.code,
        request_id: requestId,
        ...(err.errors ? { errors: err.errors } : {}),
      },
      err.status as ContentfulStatusCode,
      headers,
    );
  };
}

/**
 * A request path fit for a log line: the checkout tokens in session routes (`cs_...`, `pt_...`) and any key that
 * ended up in a path are capabilities, so they are cut to their prefix.
 *
 * @example loggablePath('/api/dropin/v1/sessions/cs_AbC.../events') // '/api/dropin/v1/sessions/cs_…/events'
 */
export function loggablePath(path: string): string {
  return (
    path
      .replace(/(^|\/)(cs|pt|sk|dk|whsec)_[^/]*/g, '$1$2_…')
      // A reusable link's token is its capability too (/l/{token}, /api/dropin/v1/links/{token}/payments), and a
      // refund claim link's (/refund/{token}).
      .replace(/(^|\/)(l|links|refund)\/[A-Za-z0-9_-]{8,}/g, '$1$2/…')
  );
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
