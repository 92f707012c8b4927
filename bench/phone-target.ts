import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTcpProxy, type TcpProxy } from '../core/chains/evm/testing/tcp-proxy.js';
import { rememberDemoKey } from '../dropin-api/demo.js';
import { startShop } from '../e2e/shop-server.js';
import { startTestService } from '../server/testing/harness.js';

/**
 * What bench/phone.ts measures, in a process of its own and from the tree it sits in (`npx tsx bench/phone-target.ts`
 * with that tree as the working directory), so two trees (before and after a change) run side by side, their loads
 * interleaved: the service behind a TCP proxy that adds a round trip (its PUBLIC_URL), a shop of another origin
 * with README's snippet (`/`) and the one tag (`/one-tag`), and a reverse proxy on a third origin that serves the
 * service's pages as they are, headers included (an operator's own hostname for the demo storefront). Prints
 * `READY {service, shop, site, publicKey}`; stops on SIGTERM.
 */
const roundTripMs = Number(process.env.ROUND_TRIP_MS ?? '150');

let proxy: TcpProxy | undefined;
const t = await startTestService({
  start: true,
  publicUrl: async (port) => {
    proxy = await startTcpProxy(port, { roundTripMs });
    return proxy.url;
  },
});
// A tree whose harness has no `publicUrl` (the service then names its own address): the proxy now.
proxy ??= await startTcpProxy(Number(new URL(t.url).port), { roundTripMs });
await rememberDemoKey(t.service.deps.db, t.merchant.public_key);
const shop = await startShop(proxy.url);

const target = new URL(t.url);
const site = createServer((req, res) => {
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'connection'));
  void fetch(new URL(req.url ?? '/', target), {
    method: req.method ?? 'GET',
    headers: headers as Record<string, string>,
  }).then(
    async (r) => {
      const out: Record<string, string> = {};
      // fetch() decoded the body: its length and encoding are no longer those of the service's answer.
      r.headers.forEach((v, k) => {
        if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(k)) out[k] = v;
      });
      res.writeHead(r.status, out).end(Buffer.from(await r.arrayBuffer()));
    },
    () => res.writeHead(502).end(),
  );
});
await new Promise<void>((r) => site.listen(0, () => r()));
const sitePort = (site.address() as AddressInfo).port;

process.stdout.write(
  `READY ${JSON.stringify({ service: proxy.url, shop: shop.url, site: `http://localhost:${sitePort}`, publicKey: t.merchant.public_key })}\n`,
);
process.once('SIGTERM', async () => {
  site.close();
  await shop.close();
  await proxy?.close();
  await t.close();
  process.exit(0);
});
