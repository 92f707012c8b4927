import { describe, expect, it } from 'vitest';
import { countdown } from './format.js';
import { pickLocale } from './i18n.js';
import { optionProblems } from './option-messages.js';
import { sessionBody } from './options.js';

describe('open() options', () => {
  const ok = { publicKey: 'dk_test_abc', amount: 25, customer: { email: 'ann@example.com' } };

  it('accepts the API §4.9 options and maps them to the session body', () => {
    expect(
      optionProblems({ ...ok, currency: 'usd', cryptoCurrency: 'USDTERC20', reference: 'A-1', onSuccess: () => {} }),
    ).toEqual([]);
    expect(
      sessionBody({ ...ok, cryptoCurrency: 'BTC', reference: 'A-1', customer: { email: 'a@b.co', name: 'Ann' } }),
    ).toEqual({
      public_key: 'dk_test_abc',
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
      currency: 'EURO',
      customer: {},
      onClose: 'no',
    });
    expect(problems).toEqual([
      'publicKey must be your public dk_ key: secret keys (sk_) must never reach a browser; rotate it now',
      'amount must be a positive number',
      'currency must be a currency code such as "EUR"',
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
