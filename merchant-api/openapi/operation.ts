import type { z } from 'zod';

/** The error statuses an /api/v1 route can answer; each is documented with the error envelope (README "Status codes"). */
export type ErrorStatus = 400 | 401 | 404 | 405 | 409 | 413 | 415 | 422 | 429 | 500 | 503;

/**
 * What a route file says about itself for the OpenAPI document: its request schemas are the very ones it validates
 * with, its answer is one of merchant-api/openapi/responses.ts. `path` is in OpenAPI form (`/payments/{payment_id}`).
 */
export interface Operation {
  method: 'get' | 'post' | 'patch';
  path: string;
  operationId: string;
  summary: string;
  /** What a reader needs beyond the summary (linters ask for one on every operation). */
  description: string;
  tag: 'Payments' | 'Links' | 'Refunds' | 'Pricing' | 'Balances' | 'Webhooks' | 'Sandbox' | 'Meta';
  query?: z.ZodType;
  pathParams?: Record<string, { description: string; example: string }>;
  body?: { schema: z.ZodType; required: boolean; example?: unknown };
  /** The route honours `Idempotency-Key` (README "Idempotency-Key"). */
  idempotent?: boolean;
  success: { status: 200 | 201 | 202; description: string; data: z.ZodType; example?: unknown };
  /** Error statuses beyond those every keyed route has (401, 405, 429, 500). */
  errors: ErrorStatus[];
}

/** Errors every keyed /api/v1 route can answer: a missing or bad key, a wrong method, the rate limit, a failure. */
export const commonErrors: ErrorStatus[] = [401, 405, 429, 500];

/** A JSON body: malformed JSON, an oversize body, a non-JSON content type and field errors. */
export const bodyErrors: ErrorStatus[] = [400, 413, 415, 422];

/** Routes that price an asset: live prices may be stale (503). */
export const pricingErrors: ErrorStatus[] = [422, 503];
