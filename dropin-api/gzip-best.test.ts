import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gzipBest } from './gzip-best.js';

describe('gzipBest', () => {
  const cases: [string, Buffer][] = [
    ['empty', Buffer.alloc(0)],
    ['one byte', Buffer.from('a')],
    ['a short repeat', Buffer.from('abcabcabcabcabc')],
    ['a long run (matches of 258)', Buffer.alloc(100_000, 0x78)],
    ['random bytes (no matches)', randomBytes(5000)],
    [
      'text past the 32 KB window',
      Buffer.from('function x(){return 1}\n'.repeat(3000) + randomBytes(40_000).toString('hex')),
    ],
    ['this source', readFileSync(new URL('./gzip-best.ts', import.meta.url))],
  ];
  for (const [name, data] of cases) {
    it(`inflates back to the input: ${name}`, () => {
      const gz = gzipBest(data, 5);
      expect(gunzipSync(gz).equals(data)).toBe(true);
      // A plain gzip member: magic, deflate, no flags; CRC-32 and length in the trailer.
      expect([...gz.subarray(0, 4)]).toEqual([0x1f, 0x8b, 8, 0]);
      expect(gz.readUInt32LE(gz.length - 4)).toBe(data.length);
    });
  }

  it('is smaller than zlib level 9 on code', () => {
    const code = readFileSync(new URL('./gzip-best.ts', import.meta.url));
    expect(gzipBest(code).length).toBeLessThan(gzipSync(code, { level: 9 }).length);
  });

  it('gives the same bytes for the same input', () => {
    const code = readFileSync(new URL('./static-files.ts', import.meta.url));
    expect(gzipBest(code).equals(gzipBest(code))).toBe(true);
  });
});
