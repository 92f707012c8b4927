import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, configSchema, loadConfig } from './config.js';

describe('configuration', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      HOST: '127.0.0.1',
      PORT: 8787,
      DATABASE_URL: 'sqlite:data/service.sqlite',
      PUBLIC_URL: 'http://127.0.0.1:8787',
      PAYMENT_TTL_SECONDS: 1200,
      PAYMENT_GRACE_SECONDS: 900,
      RATE_LIMIT_PER_SECOND: 100,
    });
  });
  it('names the bad variable in one line', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ MIN_AMOUNTS_USD: '{"BTC": 5}' })).toThrow(/MIN_AMOUNTS_USD/);
  });
});

describe('configuration errors never echo a secret', () => {
  it('hides the password of a bad SMTP_URL and never shows a bad key or token', () => {
    const message = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (e) {
        return (e as Error).message;
      }
      return 'accepted';
    };
    const smtp = message({
      SMTP_URL: 'SMTPX://mailer:hunter2-secret@relay.example:465',
      MAIL_FROM: 'shop@example.com',
    });
    expect(smtp).toMatch(/^Invalid configuration: SMTP_URL: /);
    expect(smtp).not.toContain('hunter2-secret');
    expect(smtp).toContain('***@relay.example:465');
    const token = message({ METRICS_TOKEN: 'short-secret' });
    expect(token).toMatch(/^Invalid configuration: METRICS_TOKEN: /);
    expect(token).not.toContain('short-secret');
  });
});

describe('documented settings', () => {
  const keys = Object.keys(configSchema.shape);
  it('.env.example (compose passes it to the service) lists every setting the service reads', () => {
    const example = readFileSync('.env.example', 'utf8');
    expect(keys.filter((k) => !new RegExp(`^${k}=`, 'm').test(example))).toEqual([]);
  });
  it("README's configuration table names every setting", () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(keys.filter((k) => !readme.includes(`\`${k}\``))).toEqual([]);
  });
});
