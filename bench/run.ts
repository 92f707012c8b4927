/**
 * `npm run bench`: every benchmark in one run; figures go to bench/results.json and a table on stdout.
 * Targets are compared with the baseline each issue names (the bare Hono route, the bare API round trip, ...).
 */
import { writeFileSync } from 'node:fs';
import { benchApi } from './api.js';

type Row = [string, string, string];

async function optional<T>(name: string, load: () => Promise<T>): Promise<T | { skipped: string }> {
  try {
    return await load();
  } catch (e) {
    return { skipped: `${name}: ${e instanceof Error ? e.message : String(e)}` };
  }
}

async function main(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS ?? '10');
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    cpus: (await import('node:os')).cpus().length,
  };
  const rows: Row[] = [];

  const qr = await optional('qr', async () => (await import('./qr.js')).measureQr());
  results.qr = qr;
  if (!('skipped' in qr))
    for (const [k, v] of Object.entries(qr))
      rows.push([
        `QR encode: ${k}`,
        `${v.toFixed(3)} ms/code`,
        k.includes('ours') || k.includes('qrSvgDataUrl') ? 'target < 0.3 ms' : '',
      ]);

  const api = await benchApi(seconds);
  results.api = api;
  rows.push([
    'ceiling: bare Hono JSON route',
    `${api.ceiling.rps} req/s`,
    `p50 ${api.ceiling.p50} ms, p99 ${api.ceiling.p99} ms`,
  ]);
  for (const [store, f] of Object.entries(api.stores)) {
    rows.push([
      `${store}: POST /payments`,
      `${f.createPayment.rps} req/s`,
      `p50 ${f.createPayment.p50} ms, p99 ${f.createPayment.p99} ms, ${(f.createPayment.rps / api.ceiling.rps).toFixed(2)}x ceiling, non-2xx ${f.createPayment.non2xx} (target >= 1500/s)`,
    ]);
    rows.push([
      `${store}: GET /payments/{id}`,
      `${f.getPayment.rps} req/s`,
      `p50 ${f.getPayment.p50} ms, p99 ${f.getPayment.p99} ms, ${(f.getPayment.rps / api.ceiling.rps).toFixed(2)}x ceiling (target >= 0.5x)`,
    ]);
    rows.push([`${store}: service peak RSS`, `${f.peakRssMb} MB`, 'target < 250 MB']);
  }

  for (const [name, file, fn] of [
    ['webhooks', './webhooks.js', 'benchWebhooks'],
    ['dropin', './dropin.js', 'benchDropin'],
    ['evm', './evm.js', 'benchEvm'],
  ] as const) {
    const r = await optional(name, async () => {
      const mod = (await import(file)) as Record<string, () => Promise<unknown>>;
      const f = mod[fn];
      if (!f) throw new Error(`${file} has no ${fn}`);
      return f();
    });
    results[name] = r;
    rows.push([name, 'skipped' in (r as object) ? 'skipped' : 'see results.json', JSON.stringify(r).slice(0, 160)]);
  }

  writeFileSync('bench/results.json', `${JSON.stringify(results, null, 2)}\n`);
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  for (const r of rows) process.stdout.write(`${r[0].padEnd(w0)}  ${r[1].padStart(w1)}  ${r[2]}\n`);
  process.stdout.write('\nWritten to bench/results.json\n');
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  },
);
