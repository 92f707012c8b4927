import { z } from 'zod';
import { reusableLinkDetailSchema, reusableLinkSchema } from '../../api-kit/link-view-schemas.js';
import { directPaymentSchema, paymentLinkSchema, paymentStatusViewSchema } from '../../api-kit/payment-schemas.js';
import { IDEMPOTENCY_KEY_RE } from '../../core/payments/idempotency.js';
import { merchantRoutes } from '../route-list.js';
import { commonErrors, type ErrorStatus, type Operation } from './operation.js';
import { refundReadSchema, refundSchema, refundUpdatedSchema, refundWithClaimSchema } from './refund-schemas.js';
import {
  balanceSchema,
  currencySchema,
  deliverySchema,
  envelopeSchema,
  errorEnvelopeSchema,
  openApiDocumentSchema,
  paymentUpdatedSchema,
} from './responses.js';
import { paymentUpdatedWebhook, refundUpdatedWebhook } from './webhook.js';

/** Every keyed /api/v1 operation: the routes the app serves, in the order the reference reads best. */
export const operations: Operation[] = merchantRoutes;

/** Schemas shown under their own name in `components.schemas` (everything else is inlined where used). */
const namedSchemas: Record<string, z.ZodType> = {
  Error: errorEnvelopeSchema,
  Currency: currencySchema,
  Balance: balanceSchema,
  PaymentStatus: paymentStatusViewSchema,
  DirectPayment: directPaymentSchema,
  PaymentLink: paymentLinkSchema,
  ReusableLink: reusableLinkSchema,
  ReusableLinkDetail: reusableLinkDetailSchema,
  WebhookDelivery: deliverySchema,
  PaymentUpdatedEvent: paymentUpdatedSchema,
  Refund: refundReadSchema,
  RefundWithClaimLink: refundWithClaimSchema,
  RefundInEvent: refundSchema,
  RefundUpdatedEvent: refundUpdatedSchema,
  OpenApiDocument: openApiDocumentSchema,
};

const errorMeaning: Record<ErrorStatus, string> = {
  400: 'Malformed JSON, a JSON body that is not an object, an `Idempotency-Key` that is not 1 to 255 printable ASCII characters, or an unsupported operation (sandbox routes with a live key, a test event without a webhook URL)',
  401: 'Missing, invalid or inactive key, or a public dk_ key',
  404: 'Unknown route (with or without a key), or no such resource for this merchant',
  405: 'Method not allowed on this path; the `Allow` header lists the methods it serves',
  409: 'A request with the same Idempotency-Key is still running',
  413: 'Body over the limit (`BODY_LIMIT_BYTES`); a route without a request body takes none: any body is 413',
  415: 'The body is not JSON',
  422: 'Validation failed: `errors` maps each field to its messages; nothing was written',
  429: 'Over the rate limit; retry after `Retry-After` seconds',
  500: 'Unexpected failure; when creating a payment, check whether it was created before retrying, or retry with the same Idempotency-Key',
  503: 'Live prices are stale; retry after `Retry-After` seconds',
};

type JsonObject = Record<string, unknown>;

/**
 * The OpenAPI 3.1 document of /api/v1, generated from the routes' own zod schemas (`z.toJSONSchema`, JSON Schema
 * 2020-12, which OpenAPI 3.1 uses as is). Built once per process; `serverUrl` is PUBLIC_URL + /api/v1.
 */
export function buildOpenApiDocument(serverUrl: string): JsonObject {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(namedSchemas)) registry.add(schema, { id });
  const requestIds = new Map<Operation, string>();
  const responseIds = new Map<Operation, string>();
  for (const op of operations) {
    const name = op.operationId[0]?.toUpperCase() + op.operationId.slice(1);
    if (op.body && !registry.has(op.body.schema)) registry.add(op.body.schema, { id: `${name}Request` });
    if (op.body) requestIds.set(op, registry.get(op.body.schema)?.id ?? '');
    responseIds.set(op, `${name}Response`);
    registry.add(envelopeSchema(op.success.data), { id: `${name}Response` });
  }
  const generated = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'input', // requests as clients send them (before defaults and transforms); responses have neither
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  });
  const schemas: Record<string, JsonObject> = {};
  for (const [id, s] of Object.entries(generated.schemas)) {
    const { $schema: _s, $id: _i, ...rest } = s as JsonObject;
    schemas[id] = rest;
  }

  const paths: Record<string, Record<string, JsonObject>> = {
    '/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        summary: 'This document',
        description: 'The OpenAPI 3.1 document of this API, without a key; rate limited per client address.',
        tags: ['Meta'],
        security: [],
        responses: {
          200: {
            description: 'The OpenAPI 3.1 document',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/OpenApiDocument' } } },
          },
          ...errorRefs([405, 429, 500]),
        },
      },
    },
  };
  for (const op of operations) {
    const item = paths[op.path] ?? {};
    item[op.method] = operationObject(op, requestIds.get(op), responseIds.get(op) ?? '');
    paths[op.path] = item;
  }
  // HEAD and OPTIONS are served on every path (api-kit/routes.ts), so they are operations like any other.
  for (const item of Object.values(paths)) {
    const get = item.get as OperationObject | undefined;
    if (get) item.head = headObject(get);
    item.options = optionsObject((get ?? item.post) as OperationObject, Object.keys(item));
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Crypto payments service: merchant API',
      version: '1.0.0',
      // Self-hosted: whoever runs this service answers for it and sets its terms; its reference page is the contact.
      contact: { name: 'The operator of this service', url: `${new URL(serverUrl).origin}/docs` },
      license: { name: "Proprietary: the terms of this service's operator", url: `${new URL(serverUrl).origin}/docs` },
      description:
        'Non-custodial crypto payments priced in USD. Every call sends `X-API-Key: sk_...`; answers use the envelope `{success, message, data}`, failures `{success: false, message, code, request_id, errors?}`. Exact amounts are JSON numbers written with their exact digits: display them as returned. Signed `payment.updated` webhooks (see webhooks) are the source of truth for fulfilment.',
    },
    // No `jsonSchemaDialect`: 2020-12 is the default anyway, and Prism skips every body check when the line is there.
    servers: [{ url: serverUrl }],
    security: [{ ApiKey: [] }],
    tags: Object.entries(tagDescriptions).map(([name, description]) => ({ name, description })),
    paths,
    webhooks: { 'payment.updated': paymentUpdatedWebhook, 'refund.updated': refundUpdatedWebhook },
    components: {
      schemas,
      securitySchemes: {
        ApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'Secret key `sk_test_...` or `sk_live_...`',
        },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Replays the first response for 24 h; another body with the same key is 422; while the first request runs, 409.',
          schema: { type: 'string', pattern: IDEMPOTENCY_KEY_RE.source },
          example: 'order-1001',
        },
      },
      responses: Object.fromEntries(
        (Object.keys(errorMeaning) as unknown as ErrorStatus[]).map((status) => [
          `Error${status}`,
          errorResponse(Number(status) as ErrorStatus),
        ]),
      ),
    },
  };
}

const tagDescriptions: Record<Operation['tag'], string> = {
  Payments: 'Create payments and payment links, read their status, list them for reconciliation',
  Links: 'Reusable payment links: one public URL, a new payment for each customer who opens it',
  Refunds: "Money back to the customer, in the paid asset's exact units: sent by the merchant's wallet, seen on chain",
  Pricing: 'Enabled assets, minimum amounts and estimates',
  Balances: "The key's merchant balances per asset, derived from deposits",
  Webhooks: 'The `payment.updated` and `refund.updated` delivery log, redelivery, test events and the endpoint',
  Sandbox: 'Test mode only: transfers and blocks on the simulated chain',
  Meta: 'This document',
};

function errorHeaders(status: ErrorStatus): JsonObject {
  if (status === 429 || status === 503)
    return { 'Retry-After': { description: 'Seconds to wait', required: true, schema: { type: 'integer' } } };
  if (status === 405)
    return {
      Allow: {
        description: 'The methods this path serves, such as `GET, HEAD, OPTIONS`',
        required: true,
        schema: { type: 'string' },
      },
    };
  return {};
}

function errorResponse(status: ErrorStatus): JsonObject {
  const headers = errorHeaders(status);
  return {
    description: errorMeaning[status],
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

const errorRefs = (statuses: ErrorStatus[]) =>
  Object.fromEntries(statuses.map((s) => [s, { $ref: `#/components/responses/Error${s}` }]));

/** The parts of an operation object that its path's HEAD and OPTIONS operations are built from. */
type OperationObject = {
  operationId: string;
  tags: string[];
  security?: unknown[];
  parameters?: JsonObject[];
  responses: JsonObject;
};

/** HEAD answers what GET answers, statuses and headers, without a body; it takes GET's parameters. */
function headObject(get: OperationObject): JsonObject {
  const responses: JsonObject = {};
  for (const [status, r] of Object.entries(get.responses)) {
    const ref = (r as { $ref?: string }).$ref;
    const meaning = ref ? errorMeaning[Number(status) as ErrorStatus] : (r as { description: string }).description;
    const headers = ref ? errorHeaders(Number(status) as ErrorStatus) : (r as { headers?: JsonObject }).headers;
    responses[status] = {
      description: `${meaning} (no body)`,
      ...(headers && Object.keys(headers).length > 0 ? { headers } : {}),
    };
  }
  return {
    operationId: `${get.operationId}Head`,
    summary: 'Headers only (HEAD)',
    description: `Answers as GET (\`${get.operationId}\`) does, with the same status and headers and no body.`,
    tags: get.tags,
    ...(get.security ? { security: get.security } : {}),
    ...(get.parameters ? { parameters: get.parameters } : {}),
    responses,
  };
}

/** OPTIONS answers 204 with `Allow`; it takes the path's key rule (the keyless document's OPTIONS needs none). */
function optionsObject(first: OperationObject, methods: string[]): JsonObject {
  const keyless = first.security !== undefined;
  const pathParams = (first.parameters ?? []).filter((p) => p.in === 'path');
  return {
    operationId: `${first.operationId}Options`,
    summary: 'Methods allowed on this path (OPTIONS)',
    description: `The \`Allow\` header lists the methods this path serves: ${[...methods, 'options'].map((m) => m.toUpperCase()).join(', ')}.`,
    tags: first.tags,
    ...(keyless ? { security: first.security } : {}),
    ...(pathParams.length > 0 ? { parameters: pathParams } : {}),
    responses: {
      204: {
        description: 'No content; see `Allow`',
        headers: { Allow: { description: 'The methods this path serves', required: true, schema: { type: 'string' } } },
      },
      ...errorRefs(keyless ? [429, 500] : [401, 429, 500]),
    },
  };
}

function operationObject(op: Operation, requestId: string | undefined, responseId: string): JsonObject {
  const parameters: JsonObject[] = [];
  for (const [name, p] of Object.entries(op.pathParams ?? {}))
    parameters.push({
      name,
      in: 'path',
      required: true,
      description: p.description,
      schema: { type: 'string' },
      example: p.example,
    });
  if (op.query) {
    const q = z.toJSONSchema(op.query, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as {
      properties?: Record<string, JsonObject>;
      required?: string[];
    };
    for (const [name, schema] of Object.entries(q.properties ?? {}))
      parameters.push({ name, in: 'query', required: q.required?.includes(name) ?? false, schema });
  }
  if (op.idempotent) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  const errors = [...new Set([...commonErrors, ...op.errors])].sort((a, b) => a - b);
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(op.body && requestId
      ? {
          requestBody: {
            required: op.body.required,
            content: {
              'application/json': {
                schema: { $ref: `#/components/schemas/${requestId}` },
                ...(op.body.example ? { example: op.body.example } : {}),
              },
            },
          },
        }
      : {}),
    responses: {
      [op.success.status]: {
        description: op.success.description,
        ...(op.idempotent
          ? {
              headers: {
                'Idempotent-Replayed': {
                  description: '`true` when this is the replay of an earlier response to the same Idempotency-Key',
                  schema: { type: 'string', enum: ['true'] },
                },
              },
            }
          : {}),
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${responseId}` } } },
      },
      ...errorRefs(errors),
    },
  };
}
