/**
 * The API reference at /docs: plain HTML rendered on the server from the OpenAPI document, once at start-up. No
 * script at all (so nothing to load from a CDN, and the service's CSP, which allows no inline script, holds as is);
 * its one <style> is inline, which the policy allows.
 */

type Json = Record<string, unknown>;
type SchemaObject = Json & {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, SchemaObject>;
  required?: string[];
  items?: SchemaObject;
  anyOf?: SchemaObject[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
  format?: string;
  additionalProperties?: SchemaObject | boolean;
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);

/** Descriptions are short Markdown: `code` and **bold** are all they use. */
const prose = (s: string) =>
  escapeHtml(s)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .split(/\n\n+/)
    .map((p) => `<p>${p}</p>`)
    .join('');

export function renderReferencePage(doc: Json): string {
  const components = (doc.components ?? {}) as { schemas?: Record<string, SchemaObject>; responses?: Json };
  const resolve = (s: SchemaObject): [SchemaObject, string | undefined] => {
    if (!s.$ref) return [s, undefined];
    const name = s.$ref.split('/').pop() ?? '';
    return [components.schemas?.[name] ?? {}, name];
  };

  const typeOf = (raw: SchemaObject): string => {
    const [s, name] = resolve(raw);
    if (s.anyOf) return s.anyOf.map(typeOf).join(' or ');
    if (s.const !== undefined) return JSON.stringify(s.const);
    if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
    const t = Array.isArray(s.type) ? s.type.join(' or ') : (s.type ?? 'any');
    if (t === 'array' && s.items) return `array of ${typeOf(s.items)}`;
    return name && t === 'object' ? name : s.format ? `${t} (${s.format})` : t;
  };

  const fields = (raw: SchemaObject, seen: Set<string>): string => {
    const [s, name] = resolve(raw);
    if (name && seen.has(name)) return '';
    const next = name ? new Set([...seen, name]) : seen;
    const target = s.items ? resolve(s.items)[0] : (s.anyOf?.map((a) => resolve(a)[0]).find((a) => a.properties) ?? s);
    if (!target.properties) return '';
    const rows = Object.entries(target.properties).map(([key, prop]) => {
      const req = target.required?.includes(key) ? ' <span class="req">required</span>' : '';
      const desc = (resolve(prop)[0].description as string | undefined) ?? '';
      return `<li><code>${escapeHtml(key)}</code> <span class="type">${escapeHtml(typeOf(prop))}</span>${req}${
        desc ? ` — ${prose(desc).replace(/^<p>|<\/p>$/g, '')}` : ''
      }${fields(prop, next)}</li>`;
    });
    return `<ul>${rows.join('')}</ul>`;
  };

  const example = (value: unknown) =>
    value === undefined ? '' : `<pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre>`;

  const operation = (method: string, path: string, op: Json, id: string): string => {
    const params = ((op.parameters ?? []) as Json[]).map((p) => {
      const param = p.$ref
        ? (((components as Json).parameters as Json)[String(p.$ref).split('/').pop() ?? ''] as Json)
        : p;
      return `<tr><td><code>${escapeHtml(String(param.name))}</code></td><td>${escapeHtml(String(param.in))}</td><td>${escapeHtml(
        typeOf(param.schema as SchemaObject),
      )}</td><td>${param.required ? 'yes' : ''}</td><td>${param.description ? prose(String(param.description)) : ''}</td></tr>`;
    });
    const body = (op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
    const media = body?.['application/json'];
    const responses = Object.entries((op.responses ?? {}) as Record<string, Json>).map(([status, r]) => {
      const resp = r.$ref
        ? (((components.responses ?? {}) as Record<string, Json>)[String(r.$ref).split('/').pop() ?? ''] ?? {})
        : r;
      const schema = ((resp.content as Record<string, Json> | undefined)?.['application/json']?.schema ?? undefined) as
        | SchemaObject
        | undefined;
      const detail = Number(status) < 400 && schema ? fields(schema, new Set()) : '';
      return `<li><strong>${escapeHtml(status)}</strong> ${escapeHtml(String(resp.description ?? ''))}${detail}</li>`;
    });
    return `<section id="${escapeHtml(id)}"><h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(
      path,
    )}</code></h3><p class="summary">${escapeHtml(String(op.summary ?? ''))}</p>${op.description ? prose(String(op.description)) : ''}${
      params.length > 0
        ? `<h4>Parameters</h4><table><thead><tr><th>name</th><th>in</th><th>type</th><th>required</th><th></th></tr></thead><tbody>${params.join('')}</tbody></table>`
        : ''
    }${media ? `<h4>Body</h4>${fields(media.schema as SchemaObject, new Set())}${example(media.example)}` : ''}<h4>Responses</h4><ul>${responses.join('')}</ul></section>`;
  };

  const info = doc.info as { title: string; description: string; version: string };
  const paths = doc.paths as Record<string, Record<string, Json>>;
  const byTag = new Map<string, string[]>();
  const toc: string[] = [];
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item)) {
      const id = String(op.operationId);
      const tag = ((op.tags as string[] | undefined) ?? ['Other'])[0] ?? 'Other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operation(method, path, op, id)]);
      toc.push(`<li><a href="#${escapeHtml(id)}">${method.toUpperCase()} ${escapeHtml(path)}</a></li>`);
    }
  }
  const hooks = Object.entries((doc.webhooks ?? {}) as Record<string, Record<string, Json>>).flatMap(([name, item]) =>
    Object.entries(item).map(([method, op]) => operation(method, name, op, `webhook-${name}`)),
  );
  const servers = (doc.servers as { url: string }[]).map((s) => `<code>${escapeHtml(s.url)}</code>`).join(', ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>${escapeHtml(info.title)}</title><style>${css}</style></head>
<body><header><h1>${escapeHtml(info.title)} <small>${escapeHtml(info.version)}</small></h1>${prose(info.description)}
<p>Base URL: ${servers}. Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI 3.1).</p></header>
<nav aria-label="Operations"><ul>${toc.join('')}<li><a href="#webhook-payment.updated">Webhook payment.updated</a></li></ul></nav>
<main>${[...byTag].map(([tag, ops]) => `<h2>${escapeHtml(tag)}</h2>${ops.join('')}`).join('')}<h2>Webhooks</h2>${hooks.join('')}</main>
</body></html>`;
}

const css = `
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:960px;padding:1rem 1.5rem;color:#1b1f24;background:#fff}
@media (prefers-color-scheme:dark){body{color:#e6e6e6;background:#15171a}a{color:#8cb4ff}pre,code{background:#23262b!important}}
code,pre{font:13px/1.4 ui-monospace,monospace;background:#f3f4f6;border-radius:4px}code{padding:0 .2em}pre{padding:.75rem;overflow:auto}
section{border-top:1px solid #8884;padding:.5rem 0 1rem}h3 code{background:none;font-size:1rem}
.method{display:inline-block;min-width:3.5em;font-size:.8rem;padding:.1em .4em;border-radius:4px;color:#fff;background:#2563eb;text-align:center}
.method.post{background:#15803d}.type{color:#6b7280}.req{color:#b91c1c;font-size:.8em}
table{border-collapse:collapse}td,th{border:1px solid #8884;padding:.25rem .5rem;text-align:left;vertical-align:top}td p{margin:0}
nav ul{columns:2;font-size:.9rem}ul ul{font-size:.95em}
`;
