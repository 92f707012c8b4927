import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The merchant's own page, on another origin than the service (another port on "localhost" vs the service on
 * 127.0.0.1): a product, a Buy button, and README's drop-in snippet: the module preloaded beside the script tag
 * (`crossorigin`, so both share the connections the session request then reuses), or with `oneTag` the one script
 * tag alone. Tests put the options in `window.SHOP_OPTIONS` (an init script); every callback lands in
 * `window.shopEvents` for assertions.
 */
export function shopPage(
  serviceUrl: string,
  { nonce, oneTag = false }: { nonce?: string; oneTag?: boolean } = {},
): string {
  const n = nonce ? ` nonce="${nonce}"` : '';
  const tags = oneTag
    ? `<script src="${serviceUrl}/dropin/v1/checkout.js"${n}></script>`
    : `<link rel="modulepreload" href="${serviceUrl}/dropin/v1/checkout.module.js"${n}>
<script src="${serviceUrl}/dropin/v1/checkout.js" crossorigin${n}></script>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mug shop</title>
<style>body{font-family:sans-serif;margin:2rem} button{font-size:1.1rem;padding:.6rem 1rem} /* a hostile page style */ * { color: hotpink !important; } dialog, [role=dialog] { display:none !important }</style>
${tags}
</head><body>
<h1>Mug shop</h1>
<p>One mug, 25.00 USD.</p>
<button id="buy" type="button">Buy the mug</button>
<script${n}>
window.shopEvents = [];
const log = (type) => (x) => window.shopEvents.push({ type, value: x === undefined ? null : JSON.parse(JSON.stringify(x)) });
document.getElementById('buy').addEventListener('click', () => {
  const o = Object.assign({ amount: 25, customer: { email: 'ann@example.com', name: 'Ann' }, reference: 'order-1' }, window.SHOP_OPTIONS || {});
  window.checkoutHandle = ServiceCheckout.open(Object.assign(o, {
    onSuccess: log('success'), onClose: log('close'), onExpired: log('expired'), onError: log('error'), onStatus: log('status'),
  }));
  window.checkoutHandle.result.then(log('result'), log('rejected'));
});
</script>
</body></html>`;
}

export async function startShop(serviceUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  const html = shopPage(serviceUrl);
  const oneTag = shopPage(serviceUrl, { oneTag: true });
  const server: Server = createServer((req, res) => {
    if (req.url === '/' || req.url?.startsWith('/?'))
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    else if (req.url === '/one-tag') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(oneTag);
    else if (req.url === '/csp') {
      // A shop with a strict Content-Security-Policy: only scripts carrying this response's nonce run.
      const nonce = randomBytes(16).toString('base64');
      res
        .writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': `script-src 'nonce-${nonce}'`,
        })
        .end(shopPage(serviceUrl, { nonce }));
    } else if (req.url === '/favicon.ico') res.writeHead(204).end();
    else if (req.url?.startsWith('/demo/')) {
      // A copy of the demo storefront on this origin (it finds the service through ?service=), with the service's
      // Link header passed on, as an operator's reverse proxy would.
      const path = new URL(req.url, 'http://x').pathname;
      void fetch(`${serviceUrl}${path}`).then(async (r) => {
        const link = r.headers.get('link');
        res
          .writeHead(r.status, {
            'content-type': r.headers.get('content-type') ?? 'text/plain',
            ...(link && { link }),
          })
          .end(Buffer.from(await r.arrayBuffer()));
      });
    } else res.writeHead(404).end();
  });
  // Every interface (dual stack), so "localhost" works whichever address the browser tries first.
  await new Promise<void>((r) => server.listen(0, () => r()));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://localhost:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}
