import { describe, expect, it } from 'vitest';
import { countdown } from './format.js';
import { pickLocale } from './i18n.js';
import { optionProblems } from './option-messages.js';
import { sessionBody } from './options.js';

describe('open() options', () => {
  const ok = { publicKey: 'dk_test_abc', amount: 25, customer: { email: 'ann@example.com' } };

  it('accepts the spec 4.9 options and maps them to the session body', () => {
    expect(
      optionProblems({ ...ok, currency: 'usd', cryptoCurrency: 'USDTERC20', reference: 'A-1', onSuccess: () => {} }),
    ).toEqual([]);
    expect(
      sessionBody({ ...ok, cryptoCurrency: 'BTC', reference: 'A-1', customer: { email: 'a@b.co', name: 'Ann' } }),
    ).toEqual({
      amount: 25,
      crypto_currency: 'BTC',
      customer: { email: 'a@b.co', name: 'Ann' },
      reference: 'A-1',
    });
  });

  it('names every problem at once, and says why a secret key is refused', () => {
    const problems = optionProblems({
      publicKey: 'sk_live_x',
      amount: '25',
      currency: 'EUR',
      customer: {},
      onClose: 'no',
    });
    expect(problems).toEqual([
      'publicKey must be your public dk_ key: secret keys (sk_) must never reach a browser; rotate it now',
      'amount must be a positive number',
      'currency must be "USD"',
      'customer.email must be an e-mail address',
      'onClose must be a function',
    ]);
    expect(optionProblems(undefined)).toHaveLength(1);
  });
});

describe('locale and countdown', () => {
  it('forces a locale when asked, else follows the browser, else English', () => {
    expect(pickLocale('de-CH', ['fr-FR'])).toBe('de');
    expect(pickLocale(undefined, ['xx', 'pt-BR', 'en'])).toBe('pt');
    expect(pickLocale('tlh', ['xx'])).toBe('en');
  });

  it('formats what is left of the quote', () => {
    expect(countdown(20 * 60 * 1000)).toBe('20:00');
    expect(countdown(65_999)).toBe('1:05');
    expect(countdown(3_723_000)).toBe('1:02:03');
    expect(countdown(-5)).toBe('0:00');
  });
});

describe('locales', () => {
  it('ship at least 8 besides English, each with every message and the same placeholders', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { en: core } = await import('./i18n.js');
    const { enPicker } = await import('./components/picker-messages.js');
    const { enScreens } = await import('./components/screens-messages.js');
    const { enStatus } = await import('./status-messages.js');
    const { enPage } = await import('./page.js');
    const en: Record<string, string> = { ...core, ...enPicker, ...enScreens, ...enStatus, ...enPage };
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
