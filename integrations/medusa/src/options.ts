/** What a shop writes in medusa-config for this provider (README "Configure"). */
export interface CryptoPaymentOptions {
  /** The service's origin, e.g. https://pay.example.com (its merchant API is under /api/v1). */
  url: string;
  /** The merchant's secret API key, `sk_test_...` or `sk_live_...`. Never sent to a browser. */
  secretKey: string;
  /** The merchant's webhook secret, `whsec_...`: verifies every `payment.updated` Medusa receives. */
  webhookSecret: string;
  /** The asset the hosted page asks for unless the storefront passes `pay_currency`. @default "btc" */
  payCurrency?: string;
  /** Largest accepted age of a webhook's timestamp, in seconds. @default 300 */
  toleranceSeconds?: number;
  /** Where the hosted page sends the customer back after paying or cancelling (https). */
  successUrl?: string;
  cancelUrl?: string;
}

export interface ResolvedOptions {
  apiBase: string;
  secretKey: string;
  webhookSecret: string;
  payCurrency: string;
  toleranceSeconds: number;
  successUrl: string | undefined;
  cancelUrl: string | undefined;
}

function text(o: Record<string, unknown>, key: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new Error(`crypto payment provider: option "${key}" must be a string`);
  return v.trim();
}

/**
 * Checks the options when Medusa loads the provider, so a shop with a wrong key fails at start with one clear line
 * instead of at its first checkout. Every message names the option; none repeats a secret.
 */
export function resolveOptions(raw: unknown): ResolvedOptions {
  const o = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const problems: string[] = [];
  const url = text(o, 'url');
  let apiBase = '';
  if (!url) problems.push('"url" is required: the service\'s origin, e.g. https://pay.example.com');
  else {
    try {
      const u = new URL(url);
      if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('scheme');
      apiBase = `${u.origin}${u.pathname.replace(/\/+$/, '')}/api/v1`;
    } catch {
      problems.push('"url" must be an absolute http(s) URL such as https://pay.example.com');
    }
  }
  const secretKey = text(o, 'secretKey');
  if (!secretKey) problems.push('"secretKey" is required: the merchant\'s sk_test_... or sk_live_... key');
  else if (!/^sk_(test|live)_\S+$/.test(secretKey))
    problems.push('"secretKey" must be a secret key starting with sk_test_ or sk_live_ (dk_ keys are for browsers)');
  const webhookSecret = text(o, 'webhookSecret');
  if (!webhookSecret) problems.push('"webhookSecret" is required: the merchant\'s whsec_... webhook secret');
  else if (!webhookSecret.startsWith('whsec_')) problems.push('"webhookSecret" must start with whsec_');
  const payCurrency = text(o, 'payCurrency') ?? 'btc';
  if (!/^[A-Za-z0-9]{1,20}$/.test(payCurrency)) problems.push('"payCurrency" must be an asset ticker such as btc');
  const tolerance = o.toleranceSeconds ?? 300;
  if (typeof tolerance !== 'number' || !Number.isInteger(tolerance) || tolerance < 1 || tolerance > 3600)
    problems.push('"toleranceSeconds" must be a whole number of seconds from 1 to 3600');
  if (problems.length > 0) throw new Error(`crypto payment provider options: ${problems.join('; ')}`);
  return {
    apiBase,
    secretKey: secretKey as string,
    webhookSecret: webhookSecret as string,
    payCurrency: payCurrency.toLowerCase(),
    toleranceSeconds: tolerance as number,
    successUrl: text(o, 'successUrl'),
    cancelUrl: text(o, 'cancelUrl'),
  };
}
