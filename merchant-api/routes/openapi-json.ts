import type { Hono } from 'hono';
import { json } from '../../api-kit/envelope.js';
import type { MerchantEnv } from '../auth.js';
import { buildOpenApiDocument } from '../openapi/document.js';

/**
 * GET /openapi.json: the OpenAPI 3.1 document, without a key (it describes, it reveals nothing). Register before the
 * key middleware: its handler answers without passing on. Built once, at start-up.
 */
export function registerOpenApiJson(app: Hono<MerchantEnv>, publicUrl: string): void {
  const body = buildOpenApiDocument(`${publicUrl}/api/v1`);
  app.get('/openapi.json', (c) => json(c, body, 200, { 'cache-control': 'public, max-age=300' }));
}
