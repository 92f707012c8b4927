/**
 * One error type for every expected failure, with a code from a closed list.
 * HTTP layers map the code to a status (see `statusOf`); the domain never imports HTTP.
 */
export const errorCodes = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_FAILED: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorCodes;

/** Field name -> messages, the API's `errors` object on 422. */
export type FieldErrors = Record<string, string[]>;

/**
 * An empty `errors` map without a prototype. Field names come from requests, and in a plain `{}` a field named
 * `constructor` or `toString` would find Object.prototype's member instead of nothing.
 */
export function fieldErrors(): FieldErrors {
  return Object.create(null) as FieldErrors;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly errors: FieldErrors | undefined;
  /** Seconds after which a retry may succeed (429, 503). */
  readonly retryAfter: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { errors?: FieldErrors; retryAfter?: number; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'AppError';
    this.code = code;
    this.errors = opts.errors;
    this.retryAfter = opts.retryAfter;
  }

  get status(): number {
    return errorCodes[this.code];
  }
}

/** A 422 with one message on one field. */
export function invalid(field: string, message: string): AppError {
  const errors = fieldErrors();
  errors[field] = [message];
  return new AppError('VALIDATION_FAILED', 'Validation failed', { errors });
}

export function notFound(what: string): AppError {
  return new AppError('NOT_FOUND', `${what} not found`);
}

/** Expected failures are values: `Result` keeps them out of exception flow. */
export type Result<T, E = AppError> = { ok: true; value: T } | { ok: false; error: E };
export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = <E>(error: E): Result<never, E> => ({ ok: false, error });

/** Workers catch `unknown`; this turns it into an Error without losing the message. */
export function toError(e: unknown): Error {
  if (e instanceof Error) return e;
  return new Error(typeof e === 'string' ? e : JSON.stringify(e));
}
