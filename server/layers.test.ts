import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The layers of docs/architecture.md, read from the imports: server -> merchant-api, dropin-api, dashboard-api ->
 * api-kit -> core, one way. The three APIs know nothing of each other (what two of them take alike lives in api-kit);
 * the browser bundles reach the service over HTTP only, the dashboard borrowing the dashboard API's view types
 * (`import type`, gone from the bundle) and both sharing pure modules (a server-only one would not bundle). Tests and their harnesses (testing/) are left out: they drive the whole.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const LAYERS = ['core', 'api-kit', 'merchant-api', 'dropin-api', 'dashboard-api', 'server', 'widget', 'dashboard'];

/** What each layer may import at run time (itself always). */
const MAY_IMPORT: Record<string, string[]> = {
  core: [],
  'api-kit': ['core'],
  'merchant-api': ['api-kit', 'core'],
  'dropin-api': ['api-kit', 'core'],
  'dashboard-api': ['api-kit', 'core'],
  server: ['merchant-api', 'dropin-api', 'dashboard-api', 'api-kit', 'core'],
  // The browser bundles share pure modules: the money and asset words of core, the drop-in's wallet requests.
  widget: ['core'],
  dashboard: ['widget', 'core'],
};

/** Type-only imports the browser bundles may make: the answers' shapes, which vanish at build time. */
const MAY_IMPORT_TYPES: Record<string, string[]> = { dashboard: ['dashboard-api', 'api-kit', 'core'] };

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return e.name === 'testing' || e.name === 'node_modules' ? [] : sourceFiles(join(dir, e.name));
    const isSource = /\.tsx?$/.test(e.name) && !/\.(test|spec|test-d)\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts');
    return isSource ? [join(dir, e.name)] : [];
  });
}

/** Each import that crosses layers against the rule, as "file -> target". */
function crossings(): string[] {
  const found: string[] = [];
  for (const layer of LAYERS) {
    for (const file of sourceFiles(join(root, layer))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/import\s+(type\s+)?[^'";]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
        const target = relative(root, resolve(dirname(file), m[2] ?? '')).split('/')[0] ?? '';
        if (target === layer || !LAYERS.includes(target)) continue;
        const allowed = [...(MAY_IMPORT[layer] ?? []), ...(m[1] ? (MAY_IMPORT_TYPES[layer] ?? []) : [])];
        if (!allowed.includes(target)) found.push(`${relative(root, file)} -> ${target}`);
      }
    }
  }
  return found;
}

describe('layers', () => {
  it('imports go one way: server -> the APIs -> api-kit -> core; the APIs never import each other', () => {
    expect(crossings()).toEqual([]);
  });
});
