import type { Hono } from 'hono';
import { buildOpenApiDocument } from './openapi/document.js';
import { renderReferencePage } from './openapi/reference-page.js';

/** GET /docs: the API reference, rendered once from the OpenAPI document; public like the document itself. */
export function registerDocsPage(app: Hono, publicUrl: string): void {
  const html = renderReferencePage(buildOpenApiDocument(`${publicUrl}/api/v1`));
  app.get('/docs', (c) => c.html(html, 200, { 'cache-control': 'public, max-age=300' }));
}
