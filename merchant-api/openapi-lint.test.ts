import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './openapi/document.js';

/**
 * The OpenAPI document under the linters integrators run (from devDependencies, no network): Spectral's `spectral:oas`
 * and Redocly's `recommended` rules must find nothing at all, warnings included. Each run also lints a copy without
 * `info.contact` and `info.license`, and must complain about it: a linter that checks nothing would pass silently.
 */

const run = promisify(execFile);
const bin = (name: string) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));
// Redocly: no usage report and no update check (it would try the network), whatever the machine's settings.
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

let dir: string;
let served: string;
let withoutContact: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  const doc = buildOpenApiDocument('https://pay.shop.test/api/v1');
  served = join(dir, 'openapi.json');
  writeFileSync(served, JSON.stringify(doc, null, 2));
  const { contact: _c, license: _l, ...info } = doc.info as Record<string, unknown>;
  withoutContact = join(dir, 'without-contact.json');
  writeFileSync(withoutContact, JSON.stringify({ ...doc, info }, null, 2));
  writeFileSync(join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs a linter; they exit non-zero when they find something, which is what the output says too. */
async function lint(cmd: string, args: string[]): Promise<string> {
  try {
    return (await run(bin(cmd), args, { cwd: dir, env, maxBuffer: 16 << 20 })).stdout;
  } catch (e) {
    const out = (e as { stdout?: string }).stdout;
    if (!out) throw e;
    return out;
  }
}

describe('the OpenAPI document under standard linters', () => {
  it("is clean under Spectral's spectral:oas rules: no error, warning, info or hint", async () => {
    const spectral = async (file: string) =>
      JSON.parse(await lint('spectral', ['lint', '-q', '-r', join(dir, '.spectral.yaml'), '-f', 'json', file])) as {
        code: string;
        message: string;
        path: string[];
      }[];
    expect(await spectral(served)).toEqual([]);
    expect((await spectral(withoutContact)).map((p) => p.code)).toContain('info-contact');
  }, 60_000);

  it("is clean under Redocly's recommended rules: no error or warning", async () => {
    const redocly = async (file: string) =>
      JSON.parse(await lint('redocly', ['lint', '--extends', 'recommended', '--format', 'json', file])) as {
        totals: { errors: number; warnings: number };
        problems: { ruleId: string; message: string }[];
      };
    const clean = await redocly(served);
    expect(clean.problems).toEqual([]);
    expect(clean.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect((await redocly(withoutContact)).problems.map((p) => p.ruleId)).toContain('info-license');
  }, 60_000);
});
