import { AppError } from '../core/errors.js';
import { allowedOrigins, type Merchant } from '../core/merchants/merchants.js';

/** `https://Shop.example.com/` -> `https://shop.example.com`; null for anything that is not an http(s) origin. */
export function normalizeOrigin(value: string): string | null {
  try {
    const u = new URL(value);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
    return u.origin;
  } catch {
    return null;
  }
}

/**
 * docs/architecture.md drop-in contract: the merchant's allowed origins are enforced; a test-mode merchant with none set
 * accepts any origin (so trying the drop-in needs no setup); a live merchant with none set accepts only the
 * service's own pages. Requests without `Origin` are not from a page's script (curl, servers) and pass: CORS
 * protects browsers, it cannot stop other clients.
 */
export function originAllowed(merchant: Merchant, origin: string | undefined, selfOrigins: readonly string[]): boolean {
  if (!origin) return true;
  const o = normalizeOrigin(origin);
  if (o === null) return false;
  if (selfOrigins.includes(o)) return true;
  const list = allowedOrigins(merchant).map(normalizeOrigin);
  if (list.length === 0) return merchant.mode === 'test';
  return list.includes(o);
}

export function assertOrigin(merchant: Merchant, origin: string | undefined, selfOrigins: readonly string[]): void {
  if (!originAllowed(merchant, origin, selfOrigins)) {
    throw new AppError(
      'FORBIDDEN',
      `Origin ${origin} is not allowed to use this drop-in key; add it to the merchant's allowed origins (admin CLI: merchant update --allowed-origin ORIGIN)`,
    );
  }
}
