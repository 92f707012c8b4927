import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { en } from './en.js';
import { walletEn } from './wallet/en.js';

const holes = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** Every JSON file of `dir` has exactly the messages of `english`, with the same placeholders. */
function expectComplete(dir: string, english: Record<string, string>): string[] {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  for (const f of files) {
    const m = JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as Record<string, string>;
    expect(Object.keys(m).sort(), f).toEqual(Object.keys(english).sort());
    for (const [k, v] of Object.entries(english)) expect(holes(m[k] ?? ''), `${f} ${k}`).toEqual(holes(v));
  }
  return files;
}

describe('locales', () => {
  it('ship at least 8 besides English, each with every message of en.ts and the same placeholders', () => {
    expect(expectComplete('widget/locales', en).length).toBeGreaterThanOrEqual(8);
  });

  it('wallet pay has its words in every shipped locale, with every message of wallet/en.ts', () => {
    const checkout = readdirSync('widget/locales').filter((f) => f.endsWith('.json'));
    expect(expectComplete('widget/locales/wallet', walletEn).sort()).toEqual(checkout.sort());
  });
});
