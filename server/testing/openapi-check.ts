import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '../../merchant-api/openapi/document.js';

/**
 * Checks an answer of /api/v1 against the OpenAPI document, as an integrator's generated client would read it: the
 * status must be documented for the operation, the headers it marks required must be there and the body must fit its
 * schema (HEAD, OPTIONS and 204 answers have none). The harness's HTTP client calls it on every answer, so every
 * merchant API suite checks code and document against each other. Throws on a mismatch.
 */

const DOC_ID = 'openapi.json';
export const document = buildOpenApiDocument('http://127.0.0.1/api/v1');

type Header = { required?: boolean };
type Response = {
  $ref?: string;
  headers?: Record<string, Header>;
  content?: Record<string, { schema: { $ref: string } }>;
};
type PathItem = Record<string, { operationId: string; responses: Record<string, Response> }>;
const paths = document.paths as Record<string, PathItem>;
const components = document.components as { responses: Record<string, Response> };

let ajv: Ajv2020 | undefined;
function validator(): Ajv2020 {
  if (!ajv) {
    // strict off: the document carries OpenAPI keywords (paths, webhooks, example) beside its JSON Schemas.
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ ...document, $id: DOC_ID });
  }
  return ajv;
}

/** The documented operation serving `method path` (path relative to /api/v1), matched like the router does. */
export function findOperation(method: string, path: string) {
  for (const [template, item] of Object.entries(paths)) {
    const pattern = new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    const op = item[method.toLowerCase()];
    if (op && pattern.test(path)) return op;
  }
  return undefined;
}

export function checkApiResponse(method: string, url: string, status: number, body: unknown, headers?: Headers): void {
  const { pathname } = new URL(url, 'http://x');
  if (!pathname.startsWith('/api/v1/')) return;
  const path = pathname.slice('/api/v1'.length);
  const where = `${method} ${pathname} -> ${status}`;
  const op = findOperation(method, path);
  let response: Response;
  if (!op) {
    // No such operation: only a failure in the error envelope may answer (404 unknown path, 405 wrong method).
    if (status < 400) throw new Error(`${where}: answered, but the OpenAPI document has no such operation`);
    response = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  } else {
    const found = op.responses[String(status)];
    if (!found) throw new Error(`${where}: status not documented for ${op.operationId}`);
    response = found.$ref ? (components.responses[found.$ref.split('/').pop() ?? ''] ?? {}) : found;
  }
  for (const [name, h] of Object.entries(response.headers ?? {}))
    if (h.required && headers && !headers.has(name)) throw new Error(`${where}: the document promises ${name}`);
  if (method === 'HEAD' || method === 'OPTIONS' || status === 204) return;
  const ref = response.content?.['application/json']?.schema.$ref ?? '#/components/schemas/Error';
  const validate = validator().getSchema(`${DOC_ID}${ref}`);
  if (!validate) throw new Error(`${where}: no schema at ${ref}`);
  if (!validate(body)) {
    throw new Error(
      `${where}: body does not match the OpenAPI document (${ref}): ${JSON.stringify(validate.errors?.slice(0, 5))}`,
    );
  }
}
