import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { en } from './en.js';

describe('locales', () => {
  it('ship at least 8 besides English, each with every message of en.ts and the same placeholders', () => {
    const files = readdirSync('widget/locales').filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(8);
    const holes = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const f of files) {
      const m = JSON.parse(readFileSync(`widget/locales/${f}`, 'utf8')) as Record<string, string>;
      expect(Object.keys(m).sort(), f).toEqual(Object.keys(en).sort());
      for (const [k, v] of Object.entries(en)) expect(holes(m[k] ?? ''), `${f} ${k}`).toEqual(holes(v));
    }
  });
});
