import { startRelay } from '../core/mail/testing/relay.js';
import { startTestService } from '../server/testing/harness.js';
import { runIfMain } from './standalone.js';

export interface MailFigures {
  receipts: number;
  /** Receipts accepted by the relay per second, from the block that finished every payment to the last 250. */
  mailsPerSecond: number;
  /** From the payment's finishing event (its row's time) to the relay's 250 for its receipt. */
  latencyMs: { p50: number; p99: number; max: number };
  /** Receipts the relay accepted more than once (must be 0). */
  duplicates: number;
}

/**
 * `npm run bench -- mail`: a burst of `n` payments finished by one sandbox block, so `n` payment events write `n`
 * receipts in their transactions; the service (SQLite, its own dispatcher) delivers them to a local smtp-server over
 * STARTTLS with AUTH. Each receipt must arrive exactly once.
 */
export async function benchMail(n = 1000): Promise<MailFigures> {
  const relay = await startRelay();
  const t = await startTestService({
    start: true,
    env: { SMTP_URL: relay.url, MAIL_FROM: 'Bench <bench@shop.example>' },
    overrides: { mailTls: { ca: relay.ca } },
  });
  try {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const c = await t.api('/api/v1/payments', {
        body: { amount: 25, currency: 'btc', email: `buyer${i}@example.org` },
      });
      if (c.status !== 201) throw new Error(`create: ${c.status} ${c.text}`);
      const amount = /"pay_amount":([0-9.]+)/.exec(c.text)?.[1] as string;
      const tr = await t.api('/api/v1/sandbox/transfers', {
        body: { currency: 'btc', address: c.json.data.blockchain.pay_address, amount },
      });
      if (tr.status >= 300) throw new Error(`transfer: ${tr.status} ${tr.text}`);
      ids.push(c.json.data.payment.payment_id);
    }
    const burstAt = Date.now();
    await t.api('/api/v1/sandbox/blocks', { body: { network: 'btc', count: 2 } });
    const end = Date.now() + 300_000;
    while (relay.accepted().length < n && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    const accepted = relay.accepted();
    const events = await t.service.deps.db
      .selectFrom('payment_events')
      .select(['payment_id', 'created_at'])
      .where('status', '=', 'finished')
      .execute();
    const eventAt = new Map(events.map((e) => [e.payment_id, Number(e.created_at)]));
    const seen = new Map<string, number>();
    const lat: number[] = [];
    for (const m of accepted) {
      const pay = /Payment: (pay_\w+)/.exec(m.parsed.text ?? '')?.[1] ?? '';
      seen.set(pay, (seen.get(pay) ?? 0) + 1);
      const at = eventAt.get(pay);
      if (at !== undefined && (seen.get(pay) ?? 0) === 1) lat.push(m.at - at);
    }
    if (ids.some((id) => !seen.has(id)))
      throw new Error(`${ids.filter((id) => !seen.has(id)).length} receipts missing`);
    lat.sort((a, b) => a - b);
    const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] as number;
    const last = Math.max(...accepted.map((m) => m.at));
    return {
      receipts: seen.size,
      mailsPerSecond: Math.round((n / (last - burstAt)) * 1000),
      latencyMs: { p50: q(0.5), p99: q(0.99), max: lat[lat.length - 1] as number },
      duplicates: [...seen.values()].filter((v) => v > 1).length,
    };
  } finally {
    await t.close();
    await relay.close();
  }
}

runIfMain(import.meta.url, () => benchMail(Number(process.env.BENCH_MAILS ?? '1000')));
