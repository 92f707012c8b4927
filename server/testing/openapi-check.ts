import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument, operations } from '../../merchant-api/openapi/document.js';

/**
 * Checks an answer of /api/v1 against the OpenAPI document, as an integrator's generated client would read it: the
 * status must be documented for the operation and the body must fit its schema. The harness's HTTP client calls it
 * on every answer, so every merchant API suite checks code and document against each other. Throws on a mismatch.
 */

const DOC_ID = 'openapi.json';
export const document = buildOpenApiDocument('http://127.0.0.1/api/v1');
type Responses = Record<string, { $ref?: string; content?: Record<string, { schema: { $ref: string } }> }>;

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

/** The operation serving `method path` (path relative to /api/v1), matched like the router does. */
export function findOperation(method: string, path: string) {
  return operations.find((op) => {
    if (op.method !== method.toLowerCase()) return false;
    const pattern = new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return pattern.test(path);
  });
}

export function checkApiResponse(method: string, url: string, status: number, body: unknown): void {
  const { pathname } = new URL(url, 'http://x');
  if (!pathname.startsWith('/api/v1/') || method === 'HEAD' || method === 'OPTIONS' || status === 204) return;
  const path = pathname.slice('/api/v1'.length);
  const where = `${method} ${pathname} -> ${status}`;
  if (path === '/openapi.json' && status === 200) return;
  const op = findOperation(method, path);
  let ref: string;
  if (!op) {
    // No such operation: only a failure in the error envelope may answer (401 before the key, 404, 405).
    if (status < 400) throw new Error(`${where}: answered, but the OpenAPI document has no such operation`);
    ref = '#/components/schemas/Error';
  } else {
    const responses = (document.paths as Record<string, Record<string, { responses: Responses }>>)[op.path]?.[op.method]
      ?.responses;
    const response = responses?.[String(status)];
    if (!response) throw new Error(`${where}: status not documented for ${op.operationId}`);
    ref = response.$ref
      ? '#/components/schemas/Error'
      : (response.content?.['application/json']?.schema.$ref ?? '#/components/schemas/Error');
  }
  const validate = validator().getSchema(`${DOC_ID}${ref}`);
  if (!validate) throw new Error(`${where}: no schema at ${ref}`);
  if (!validate(body)) {
    throw new Error(
      `${where}: body does not match the OpenAPI document (${ref}): ${JSON.stringify(validate.errors?.slice(0, 5))}`,
    );
  }
}
