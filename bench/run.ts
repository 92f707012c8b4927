/**
 * `npm run bench`: every benchmark in one run; figures go to bench/results.json and a table on stdout.
 * Targets are compared with the baseline each issue names (the bare Hono route, the bare API round trip, ...).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { benchApi } from './api.js';

type Row = [string, string, string];

/** The parts named on the command line (`npm run bench -- scale`); none named: every part. */
const chosen = process.argv.slice(2);
const NOT_SELECTED = 'not selected';

async function optional<T>(name: string, load: () => Promise<T>): Promise<T | { skipped: string }> {
  if (chosen.length > 0 && !chosen.includes(name)) return { skipped: NOT_SELECTED };
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
    for (const [k, v] of Object.entries(qr)) rows.push([`QR encode: ${k}`, `${v.toFixed(3)} ms/code`, '']);

  const api = await optional('api', () => benchApi(seconds));
  results.api = api;
  if (!('skipped' in api))
    rows.push([
      'ceiling: bare Hono JSON route',
      `${api.ceiling.rps} req/s`,
      `p50 ${api.ceiling.p50} ms, p99 ${api.ceiling.p99} ms`,
    ]);
  for (const [store, f] of Object.entries('skipped' in api ? {} : api.stores)) {
    rows.push([
      `${store}: POST /payments`,
      `${f.createPayment.rps} req/s`,
      `p50 ${f.createPayment.p50} ms, p99 ${f.createPayment.p99} ms, non-2xx ${f.createPayment.non2xx} (floor >= 1000/s on SQLite)`,
    ]);
    rows.push([
      `${store}: GET /payments/{id}`,
      `${f.getPayment.rps} req/s`,
      `p50 ${f.getPayment.p50} ms, p99 ${f.getPayment.p99} ms, ${f.getRatio.toFixed(2)}x ceiling (paired ceiling ${f.getCeiling.rps} req/s; floor >= 0.12x)`,
    ]);
    rows.push([`${store}: service peak RSS`, `${f.peakRssMb} MB`, '']);
  }

  const webhooks = await optional('webhooks', async () => (await import('./webhooks.js')).benchWebhooks());
  results.webhooks = webhooks;
  if ('skipped' in webhooks) rows.push(['webhooks', 'skipped', webhooks.skipped]);
  else
    for (const [store, f] of Object.entries(webhooks.stores)) {
      if ('skipped' in f) {
        rows.push([`${store}: webhooks`, 'skipped', f.skipped]);
        continue;
      }
      rows.push([
        `${store}: webhook deliveries`,
        `${f.deliveriesPerSecond}/s`,
        'floor >= 1000/s (receiver answering 200)',
      ]);
      rows.push([
        `${store}: block -> verified webhook`,
        `p50 ${f.latencyMs.p50} ms`,
        `p99 ${f.latencyMs.p99} ms (floor p50 < 50 ms)`,
      ]);
    }

  const mail = await optional('mail', async () => (await import('./mail.js')).benchMail());
  results.mail = mail;
  if ('skipped' in mail) rows.push(['mail', 'skipped', mail.skipped]);
  else
    rows.push([
      `mail: ${mail.receipts} receipts from one burst of payment events`,
      `${mail.mailsPerSecond} mails/s`,
      `event -> relay 250: p50 ${mail.latencyMs.p50} ms, p99 ${mail.latencyMs.p99} ms; duplicates ${mail.duplicates}`,
    ]);

  const dropin = await optional('dropin', async () => (await import('./dropin.js')).benchDropin());
  results.dropin = dropin;
  if ('skipped' in dropin) rows.push(['drop-in', 'skipped', dropin.skipped]);
  else {
    for (const flow of ['preset', 'picker'] as const) {
      const f = dropin.sizes[flow];
      const parts = Object.entries(f.toQr)
        .map(([k, v]) => `${k} ${(v / 1024).toFixed(1)}`)
        .join(', ');
      rows.push([
        `drop-in JS+CSS gzip to QR (${flow})`,
        `${(f.codeToQr / 1024).toFixed(2)} KB`,
        `${flow === 'picker' ? 'floor' : 'budget'} <= ${(dropin.sizes.budget / 1024).toFixed(0)} KB; with API answers ${(f.toQrTotal / 1024).toFixed(1)} KB: ${parts}`,
      ]);
    }
    rows.push([
      'drop-in open() -> QR (median)',
      `${dropin.openToQrMs} ms`,
      `bare API round trip ${dropin.apiRoundTripMs} ms, ${dropin.runs} runs (floor < 150 ms)`,
    ]);
  }

  const phone = await optional('phone', async () => (await import('./phone.js')).benchPhone());
  results.phone = phone;
  if ('skipped' in phone) rows.push(['phone', 'skipped', phone.skipped]);
  else {
    const p = phone.profile;
    const profile = `${p.roundTripMs} ms RTT, ${p.downKbps / 1000}/${p.upKbps / 1000} Mbps, ${p.cpuSlowdown}x CPU, cache off, ${p.viewport.width}x${p.viewport.height}`;
    const cases = [
      ['settled', 'shop of another origin, page settled', 'target < 250 ms'],
      ['idle', 'shop of another origin, after 6 s idle', 'target < 250 ms'],
      ['early', "shop of another origin, tap as the button works (README's snippet)", 'target < 450 ms'],
      ['earlyOneTag', 'the same, the one script tag alone (no module preload)', ''],
      ['demo', 'demo storefront on another origin (?service=), page settled', ''],
    ] as const;
    const { after, before } = phone;
    const was = (f: number | undefined) => (before ? `; before ${f} ms` : '');
    for (const [k, label, target] of cases)
      rows.push([
        `phone tap -> QR (median): ${label}`,
        `${after.tapToQrMs[k]} ms`,
        `${target ? `${target}; ` : ''}${phone.runs} fresh loads; ${profile}${was(before?.tapToQrMs[k])}`,
      ]);
    rows.push([
      'phone demo storefront page-ready (median)',
      `${after.demoPageReadyMs} ms`,
      `target < 1,200 ms; ${phone.runs} fresh loads${was(before?.demoPageReadyMs)}`,
    ]);
    rows.push([
      'phone: preflights, files fetched twice',
      `${after.preflights}, ${after.duplicates.length}`,
      `target 0, 0${before ? `; before ${before.preflights}, ${before.duplicates.length} (${[...new Set(before.duplicates)].join(', ')})` : ''}; load average ${phone.loadAverage.join(' -> ')}`,
    ]);
    rows.push([
      'phone: loads failed or timed out (each tried again)',
      `${after.failures.length}`,
      `${before ? `before ${before.failures.length}; ` : ''}${[...after.failures, ...(before?.failures ?? [])].join('; ')}`,
    ]);
  }

  const wallet = await optional('wallet', async () => (await import('./wallet.js')).benchWallet());
  results.wallet = wallet;
  if ('skipped' in wallet) rows.push(['wallet pay', 'skipped', wallet.skipped]);
  else {
    rows.push([
      'wallet pay chunk gzip',
      `${(wallet.chunkGzip / 1024).toFixed(2)} KB`,
      `budget <= ${(wallet.budget / 1024).toFixed(0)} KB; loaded only when a wallet exists (+ ${wallet.localeGzip} B words outside English)`,
    ]);
    rows.push([
      'wallet pay click -> eth_sendTransaction (median)',
      `${wallet.clickToSendMs} ms`,
      `${wallet.runs} runs, live merchant on anvil; account, chain and balance asked first`,
    ]);
  }

  const dashboard = await optional('dashboard', async () => (await import('./dashboard.js')).benchDashboard());
  results.dashboard = dashboard;
  if ('skipped' in dashboard) rows.push(['dashboard', 'skipped', dashboard.skipped]);
  else {
    const b = dashboard.bundle;
    rows.push([
      'dashboard JS+CSS gzip',
      `${(b.total / 1024).toFixed(2)} KB`,
      `budget <= ${(b.budget / 1024).toFixed(0)} KB (JS ${(b.js / 1024).toFixed(1)}, CSS ${(b.css / 1024).toFixed(1)})`,
    ]);
    for (const [store, f] of Object.entries(dashboard.stores)) {
      if ('skipped' in f) {
        rows.push([`${store}: dashboard`, 'skipped', f.skipped]);
        continue;
      }
      rows.push([
        `${store}: dashboard payments, first page (${f.seeded} payments)`,
        `p50 ${f.firstPageMs} ms`,
        `status+asset filter ${f.statusFilterMs} ms (floor < 50 ms)`,
      ]);
      rows.push([
        `${store}: dashboard search by order id`,
        `p50 ${f.orderSearchMs} ms`,
        `by txid ${f.txidSearchMs} ms (floor < 50 ms)`,
      ]);
      rows.push([`${store}: dashboard overview (issue 23)`, `p50 ${f.overviewMs} ms`, 'floor < 50 ms']);
      rows.push([
        `${store}: dashboard search by id as shown`,
        `p50 ${f.shownIdSearchMs} ms`,
        `by e-mail ${f.emailSearchMs} ms, filtered search ${f.filteredSearchMs} ms (floor < 50 ms); status+asset by amount ${f.amountSortMs} ms`,
      ]);
    }
  }

  const evm = await optional('evm', async () => (await import('./evm.js')).benchEvm());
  results.evm = evm;
  if ('skipped' in evm) rows.push(['evm', 'skipped', evm.skipped]);
  else {
    for (const ph of evm.phases) {
      rows.push([
        `evm ${ph.openPayments} open: confirmed block -> finished`,
        `p50 ${ph.latencyMs.p50} ms`,
        `p99 ${ph.latencyMs.p99} ms (poll ${evm.pollIntervalMs} ms)`,
      ]);
      rows.push([
        `evm ${ph.openPayments} open: watcher CPU/block`,
        `${ph.cpuMsPerBlock} ms`,
        `service RSS ${ph.rssMb} MB, peak ${ph.peakRssMb} MB`,
      ]);
    }
    rows.push(['evm CPU/block ratio (100k vs 100 open)', `${evm.cpuRatio}x`, 'floor <= 1.2x']);
  }

  const forwarders = await optional('forwarders', async () => (await import('./forwarders.js')).benchForwarders());
  results.forwarders = forwarders;
  if ('skipped' in forwarders) rows.push(['forwarders', 'skipped', forwarders.skipped]);
  else {
    const price = `at ${forwarders.gasPriceGwei} gwei, ETH ${forwarders.ethUsd} USD`;
    for (const [size, r] of Object.entries(forwarders.batches))
      rows.push([
        `forwarder sweep, batch of ${size} (deploy + flush, no-bool token)`,
        `${r.gasPerPayment} gas/payment`,
        `$${r.usdPerPayment.toFixed(2)} ${price}; ${r.gasTotal} gas in 1 tx`,
      ]);
    const l = forwarders.laterFlush10;
    rows.push([
      'forwarder later flush, batch of 10 (deployed)',
      `${l.gasPerPayment} gas/payment`,
      `$${l.usdPerPayment.toFixed(2)} ${price}`,
    ]);
    const x = forwarders.xpubSweep;
    rows.push([
      'classic xpub sweep (21,000 top-up + token transfer)',
      `${x.gasPerPayment} gas/payment`,
      `$${x.usdPerPayment.toFixed(2)} ${price}; 2 txs per payment, top-up leftover stranded`,
    ]);
  }

  const bitcoin = await optional('bitcoin', async () => (await import('./bitcoin.js')).benchBitcoin());
  results.bitcoin = bitcoin;
  if ('skipped' in bitcoin) rows.push(['bitcoin', 'skipped', bitcoin.skipped]);
  else {
    for (const ph of bitcoin.phases) {
      rows.push([
        `ltc ${ph.openPayments} open: mempool -> confirming`,
        `p50 ${ph.mempoolToConfirmingMs.p50} ms`,
        `p99 ${ph.mempoolToConfirmingMs.p99} ms (poll ${bitcoin.pollIntervalMs} ms)`,
      ]);
      rows.push([
        `ltc ${ph.openPayments} open: block -> finished`,
        `p50 ${ph.blockToFinishedMs.p50} ms`,
        `p99 ${ph.blockToFinishedMs.p99} ms`,
      ]);
      rows.push([
        `ltc ${ph.openPayments} open: watcher CPU/block`,
        `${ph.cpuMsPerBlock} ms`,
        `${ph.outputsPerBlock} outputs/block, service RSS ${ph.rssMb} MB`,
      ]);
    }
    rows.push(['ltc CPU/block ratio (100k vs 100 open)', `${bitcoin.cpuRatio}x`, 'floor <= 1.2x']);
  }

  const monero = await optional('monero', async () => (await import('./monero.js')).benchMonero());
  results.monero = monero;
  if ('skipped' in monero) rows.push(['monero', 'skipped', monero.skipped]);
  else {
    for (const ph of monero.phases) {
      rows.push([
        `xmr ${ph.openPayments} open: pool -> confirming`,
        `p50 ${ph.mempoolToConfirmingMs.p50} ms`,
        `p99 ${ph.mempoolToConfirmingMs.p99} ms (poll ${monero.pollIntervalMs} ms)`,
      ]);
      rows.push([
        `xmr ${ph.openPayments} open: block -> finished`,
        `p50 ${ph.blockToFinishedMs.p50} ms`,
        `p99 ${ph.blockToFinishedMs.p99} ms`,
      ]);
      rows.push([
        `xmr ${ph.openPayments} open: watcher CPU/block`,
        `${ph.cpuMsPerBlock} ms`,
        `${ph.txPerBlock} tx/block, service RSS ${ph.rssMb} MB`,
      ]);
    }
    rows.push(['xmr CPU/block ratio (10k vs 100 open)', `${monero.cpuRatio}x`, 'floor <= 1.2x']);
  }

  const scale = await optional('scale', async () => (await import('./scale.js')).benchScale());
  results.scale = scale;
  if ('skipped' in scale) rows.push(['scale', 'skipped', scale.skipped]);
  else
    for (const [store, f] of Object.entries(scale.stores)) {
      if ('skipped' in f) {
        rows.push([`${store}: scale`, 'skipped', f.skipped]);
        continue;
      }
      rows.push([
        `${store}: seeding ${scale.large} payments (bulk SQL)`,
        `${f.large.seedSeconds} s`,
        `${scale.small} payments: ${f.small.seedSeconds} s (each with ${scale.pending} pending deliveries)`,
      ]);
      for (const [k, label] of [
        ['createPaymentMs', 'POST /payments'],
        ['getPaymentMs', 'GET /payments/{id}'],
        ['listFirstPageMs', 'GET /payments first page'],
        ['listFilteredMs', 'GET /payments filtered page'],
        ['balancesMs', 'GET /balances'],
        ['claimMs', `webhook claim, ${scale.pending} pending`],
      ] as const)
        rows.push([
          `${store}: ${label}, ${scale.large} vs ${scale.small} payments`,
          `${f.ratios[k]}x`,
          `p50 ${f.large[k]} ms vs ${f.small[k]} ms (floor <= 1.5x)`,
        ]);
    }

  // A run of some parts keeps the other parts' last figures.
  if (chosen.length > 0 && existsSync('bench/results.json')) {
    const previous = JSON.parse(readFileSync('bench/results.json', 'utf8')) as Record<string, unknown>;
    for (const [k, v] of Object.entries(results))
      if (typeof v === 'object' && v !== null && (v as { skipped?: string }).skipped === NOT_SELECTED && k in previous)
        results[k] = previous[k];
  }
  const shown = rows.filter((r) => r[2] !== NOT_SELECTED);
  rows.length = 0;
  rows.push(...shown);
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
