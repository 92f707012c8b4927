import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { z } from 'zod';
import { AppError, fieldErrors } from '../core/errors.js';
import { RequestAbortedError, validationError } from './errors.js';
import { nodeRequest, requestHeader } from './node-request.js';

export interface JsonBodyOptions {
  /**
   * Take `text/plain` too: a browser's cross-origin POST of text/plain is CORS-simple (no preflight, one round trip
   * less), so the drop-in sends its JSON that way. The body must still be a JSON object.
   * @default false
   */
  plainText?: boolean;
}

/**
 * Reads a JSON object body: 415 when it is not JSON, 413 over the limit, 400 when malformed or not an object, 422
 * for a NUL character anywhere. Returns the raw text too, for idempotency hashing.
 */
export async function readJsonObject(
  c: Context,
  limitBytes: number,
  options: JsonBodyOptions = {},
): Promise<{ value: Record<string, unknown>; raw: string }> {
  const type = requestHeader(c, 'content-type') ?? '';
  const json = /^application\/([a-z.+-]*\+)?json\b/i.test(type);
  if (!json && !(options.plainText && /^text\/plain\b/i.test(type))) {
    const also = options.plainText ? ' (or text/plain)' : '';
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Request body must be JSON: send Content-Type: application/json${also}`,
    );
  }
  const declared = Number(requestHeader(c, 'content-length') ?? '0');
  if (declared > limitBytes) throw tooLarge(limitBytes);
  const incoming = nodeRequest(c);
  // On a Node server, read the socket directly: building a WHATWG Request just to read a small JSON body costs
  // more than the rest of a payment creation (AbortSignal, web streams). Elsewhere (app.request) use Hono's.
  const raw = incoming ? await readIncoming(incoming, limitBytes) : await c.req.text();
  if (Buffer.byteLength(raw) > limitBytes) throw tooLarge(limitBytes);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new AppError('BAD_REQUEST', 'Malformed JSON body');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new AppError('BAD_REQUEST', 'JSON body must be an object');
  refuseNul(value);
  return { value: value as Record<string, unknown>, raw };
}

/** A body read by readJsonObject, checked against its schema: 422 with per-field errors when it does not fit. */
export function validBody<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

/** readJsonObject, then validBody: the whole of a JSON route's body handling. */
export async function readJson<S extends z.ZodType>(
  c: Context,
  schema: S,
  limitBytes: number,
  options: JsonBodyOptions = {},
): Promise<{ data: z.infer<S>; raw: string }> {
  const { value, raw } = await readJsonObject(c, limitBytes, options);
  return { data: validBody(schema, value), raw };
}

/**
 * PostgreSQL text cannot hold U+0000, so a string carrying one would fail at the insert as a 500 after validation
 * passed: refuse it per field here, for every JSON route of every API, whatever the field's own rules.
 */
function refuseNul(body: object): void {
  const errors = fieldErrors();
  const walk = (v: unknown, path: string): void => {
    if (typeof v === 'string') {
      if (v.includes('\u0000')) errors[path] = ['Must not contain the NUL character (U+0000)'];
    } else if (typeof v === 'object' && v !== null) {
      for (const [k, child] of Object.entries(v)) {
        const at = path ? `${path}.${k}` : k;
        if (k.includes('\u0000')) errors[at] = ['Field names must not contain the NUL character (U+0000)'];
        walk(child, at);
      }
    }
  };
  walk(body, '');
  if (Object.keys(errors).length > 0) throw new AppError('VALIDATION_FAILED', 'Validation failed', { errors });
}

/**
 * For a route that takes no request body: none, or an empty one, passes; any byte is 413 (the route's limit is 0) rather
 * than silently ignored, so a client sending data to the wrong route finds out. The OpenAPI document lists 413 there.
 */
export async function refuseBody(c: Context): Promise<void> {
  const noBody = () =>
    new AppError('PAYLOAD_TOO_LARGE', `${c.req.method} ${c.req.path} takes no request body; send none`);
  if (Number(requestHeader(c, 'content-length') ?? '0') > 0) throw noBody();
  const incoming = nodeRequest(c);
  // Chunked bodies declare no length: read, and refuse at the first byte.
  const raw = incoming ? await readIncoming(incoming, 0, noBody) : await c.req.text();
  if (raw.length > 0) throw noBody();
}

function readIncoming(
  incoming: IncomingMessage,
  limitBytes: number,
  tooBig: () => AppError = () => tooLarge(limitBytes),
): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // A connection closed before the end (or reset: 'error') is an aborted request. Without the 'close' case a
    // body cut off without an error would leave this promise, and its request, waiting forever.
    const aborted = () => reject(new RequestAbortedError());
    incoming.once('error', aborted);
    incoming.once('close', () => {
      if (!incoming.complete) aborted();
    });
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        incoming.removeAllListeners('data');
        incoming.resume(); // drain the rest so the 413 can be written on a healthy connection
        reject(tooBig());
        return;
      }
      chunks.push(chunk);
    });
    incoming.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function tooLarge(limit: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `Request body exceeds ${limit} bytes`);
}

/**
 * Validates a query string against a schema (422 per field; unknown parameters are refused too). The parameters go
 * into an object without a prototype, so a parameter named `__proto__` or `constructor` is one like any other (a
 * plain object would drop the first and find Object.prototype's member for the second); a repeated one is refused,
 * and so is a NUL character (see refuseNul).
 */
export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  const params: Record<string, string> = Object.create(null);
  const refused = fieldErrors();
  for (const [name, value] of new URL(c.req.url).searchParams) {
    if (name in params) refused[name] = ['Given more than once; send each parameter once'];
    else if (value.includes('\u0000')) refused[name] = ['Must not contain the NUL character (U+0000)'];
    params[name] = value;
  }
  if (Object.keys(refused).length > 0)
    throw new AppError('VALIDATION_FAILED', 'Validation failed', { errors: refused });
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}
