import type { Context } from 'hono';

/**
 * The Content-Security-Policy of every document the service serves (hosted payment page, demo storefront, error
 * pages, and any page added later). Scripts only from this origin and the configured service origin (PUBLIC_URL,
 * which may differ from the address a page was opened by), never inline and never from `data:`; styles may be
 * inline (the checkout's shadow root carries its own <style>); images from here or `data:` (QR codes, icons);
 * no framing, no plugins, no <base>.
 *
 * @example documentPolicy('https://pay.example.com')
 */
export function documentPolicy(serviceOrigin: string): string {
  return [
    "default-src 'none'",
    `script-src 'self' ${serviceOrigin}`,
    `connect-src 'self' ${serviceOrigin}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Headers every response carries: `X-Content-Type-Options: nosniff` (a JSON or text answer is never sniffed into a
 * script or a page), the document policy above and `X-Frame-Options: DENY` for browsers without `frame-ancestors`.
 * On every response rather than on pages only: a page added later cannot forget them, they cost nothing on JSON,
 * and they are set before the handler runs, while they are still cheap to add (as `x-request-id` is).
 */
export function securityHeaders(serviceOrigin: string): (c: Context) => void {
  const policy = documentPolicy(serviceOrigin);
  return (c) => {
    c.header('x-content-type-options', 'nosniff');
    c.header('content-security-policy', policy);
    c.header('x-frame-options', 'DENY');
  };
}
