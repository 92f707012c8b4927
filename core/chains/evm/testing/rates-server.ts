import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A CoinGecko-compatible `GET /simple/price` on 127.0.0.1, port 0, answering fixed USD prices: the live rate
 * source stands outside the service, so tests serve it over real HTTP rather than stubbing our rate provider.
 */
export async function startRatesServer(
  prices: Record<string, number>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname !== '/simple/price') {
      res.writeHead(404).end();
      return;
    }
    const ids = (u.searchParams.get('ids') ?? '').split(',');
    const body = Object.fromEntries(
      ids.filter((id) => prices[id] !== undefined).map((id) => [id, { usd: prices[id] }]),
    );
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
