import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './testing/harness.js';

// README is what a new operator follows: where it names what the service does, the service must agree with it.
const readme = readFileSync('README.md', 'utf8');

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t.close();
});

describe("README's words against the running service", () => {
  it('the test-mode currency list of GET /currencies names every asset a test key is offered, XMR included', async () => {
    const line = /test mode all of ([A-Z0-9, ]+);/.exec(readme)?.[1];
    expect(line, 'README names the test-mode assets in its GET /currencies row').toBeDefined();
    const documented = (line ?? '').split(',').map((s) => s.trim());
    const r = await t.api('/api/v1/currencies');
    const offered: string[] = r.json.data.map((c: { code: string }) => c.code);
    expect(offered).toContain('XMR');
    expect([...documented].sort()).toEqual([...offered].sort());
  });
});
