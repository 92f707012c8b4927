import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * A chain family is one folder behind one descriptor (core/chains/family.ts): outside core/chains/<family>/, only the
 * descriptor list (core/chains/families.ts) and the catalog (core/catalog/assets.ts, which gathers each family's
 * address shapes) import from it. Tests, their harnesses (testing/), benchmarks and e2e specs are left out: they drive
 * a family's real node through its own harness.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FAMILIES = ['evm', 'bitcoin', 'monero', 'sandbox'];
const SKIPPED_DIRS = new Set([
  'node_modules',
  'dist',
  '.git',
  'e2e',
  'bench',
  'testing',
  'test-results',
  'playwright-report',
]);

/** The two places meant to name families. */
const GATHERERS = new Set(['core/chains/families.ts', 'core/catalog/assets.ts']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return SKIPPED_DIRS.has(e.name) ? [] : sourceFiles(join(dir, e.name));
    const isSource = /\.tsx?$/.test(e.name) && !/\.(test|spec)\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts');
    return isSource ? [join(dir, e.name)] : [];
  });
}

/** The families each source file outside their folders imports from, by path from the repository root. */
function reachesInto(): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const file of sourceFiles(root)) {
    const path = relative(root, file);
    const text = readFileSync(file, 'utf8');
    const reached = new Set<string>();
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = relative(root, resolve(dirname(file), m[1] ?? ''));
      const family = FAMILIES.find((f) => target.startsWith(`core/chains/${f}/`));
      if (family && !path.startsWith(`core/chains/${family}/`)) reached.add(family);
    }
    if (reached.size > 0) found[path] = [...reached].sort();
  }
  return found;
}

describe('chain family boundaries', () => {
  const found = reachesInto();

  it('finds the gatherers reaching into every live family (the scan sees imports)', () => {
    expect(found['core/chains/families.ts']).toEqual(['bitcoin', 'evm', 'monero', 'sandbox']);
    expect(found['core/catalog/assets.ts']).toEqual(['bitcoin', 'evm', 'monero']);
  });

  it('reaches a family from outside its folder only through the descriptor list and the catalog', () => {
    const outside = Object.fromEntries(Object.entries(found).filter(([path]) => !GATHERERS.has(path)));
    expect(outside).toEqual({});
  });

  it('wires every family in the service through the descriptor list alone', () => {
    const service = found['server/service.ts'];
    expect(service).toBeUndefined();
    const text = readFileSync(join(root, 'server/service.ts'), 'utf8');
    for (const f of FAMILIES) expect(text).not.toMatch(new RegExp(`core/chains/${f}/`));
    expect(text).toMatch(/families\.map\(/);
  });
});
