import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxMine, sandboxSend } from '../core/chains/sandbox/sandbox-chain.js';
import { ManualClock } from '../core/clock.js';
import { writeChange } from '../core/payments/recompute.js';
import { openStore } from '../core/store/db.js';
import { startTestService, type TestService } from '../server/testing/harness.js';

let t: TestService;
const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
beforeAll(async () => {
  // Background work runs (expiry sweep every 20 ms) on a clock the test moves by hand.
  t = await startTestService({ clock, start: true, env: { EXPIRY_SWEEP_MS: '20' } });
});
afterAll(async () => {
  await t?.close();
});

async function create(currency = 'btc', amount = 100) {
  const r = await t.api('/api/v1/payments', { body: { amount, currency, email: 'bob@example.com' } });
  expect(r.status, r.text).toBe(201);
  const d = r.json.data;
  return {
    id: d.payment.payment_id as string,
    address: d.blockchain.pay_address as string,
    extraId: d.blockchain.extra_id as string | null,
    amount: /"pay_amount":([0-9.]+)/.exec(r.text)?.[1] as string,
    currency: d.blockchain.pay_currency as string,
    network: d.blockchain.network as string,
  };
}

async function pay(
  p: { address: string; currency: string; extraId: string | null },
  amount: string,
  currency = p.currency,
) {
  const r = await t.api('/api/v1/sandbox/transfers', {
    body: { currency, address: p.address, amount, ...(p.extraId ? { extra_id: p.extraId } : {}) },
  });
  expect(r.status, r.text).toBe(201);
  return r.json.data.txid as string;
}

async function mine(network: string, count = 1) {
  const r = await t.api('/api/v1/sandbox/blocks', { body: { network, count } });
  expect(r.status, r.text).toBe(200);
  return r.json.data.height as number;
}

async function status(id: string) {
  return (await t.api(`/api/v1/payments/${id}`)).json.data;
}

async function eventsOf(id: string) {
  return t.service.deps.db
    .selectFrom('payment_events')
    .selectAll()
    .where('payment_id', '=', id)
    .orderBy('sequence')
    .execute();
}

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 3000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

function dec(text: string, decimals: number): bigint {
  const [i, f = ''] = text.split('.');
  return BigInt(i + f.padEnd(decimals, '0'));
}
function text(units: bigint, decimals: number): string {
  const s = units.toString().padStart(decimals + 1, '0');
  const f = s.slice(-decimals).replace(/0+$/, '');
  return s.slice(0, -decimals) + (f ? `.${f}` : '');
}

describe('sandbox lifecycle', () => {
  it('waiting -> confirming (mempool, then 1 of 2 blocks) -> finished, with balances following', async () => {
    const p = await create();
    expect((await status(p.id)).payment_status).toBe('waiting');
    await pay(p, p.amount);
    let s = await status(p.id);
    expect(s.payment_status).toBe('confirming');
    expect(String(s.actually_paid)).toBe(p.amount);
    const bal1 = (await t.api('/api/v1/balances')).json.data;
    expect(bal1.sub_partner_id).toBe(t.merchant.sub_partner_id);
    const btc1 = bal1.balances.find((b: { currency: string }) => b.currency === 'BTC');
    expect(String(btc1.pending_amount)).toBe(p.amount);
    expect(btc1.amount).toBe(0);

    await mine('btc');
    s = await status(p.id);
    expect(s.payment_status).toBe('confirming');
    expect(s.confirmed_at).toBeNull();

    await mine('btc');
    s = await status(p.id);
    expect(s.payment_status).toBe('finished');
    expect(s.status_detail).toBe('none');
    expect(s.confirmed_at).toBe(new Date(clock.now()).toISOString());
    const btc2 = (await t.api('/api/v1/balances')).json.data.balances.find(
      (b: { currency: string }) => b.currency === 'BTC',
    );
    expect(String(btc2.amount)).toBe(p.amount);
    expect(btc2.pending_amount).toBe(0);
    expect(btc2.usd_amount).toBeGreaterThanOrEqual(100);
    expect(Object.keys(btc2).sort()).toEqual([
      'amount',
      'currency',
      'pending_amount',
      'pending_usd_amount',
      'updated_at',
      'usd_amount',
    ]);

    // One event per status change, in sequence order: confirming, finished.
    const events = await eventsOf(p.id);
    expect(events.map((e) => e.status)).toEqual(['confirming', 'finished']);
    expect(events.map((e) => e.sequence)).toEqual([2, 3]);
    expect(s.sequence).toBe(3);
  });

  it('short deposits -> partially_paid, then a top-up -> finished', async () => {
    const p = await create('ltc', 50);
    const total = dec(p.amount, 8);
    const first = total / 3n;
    await pay(p, text(first, 8));
    await mine('ltc', 2);
    let s = await status(p.id);
    expect(s.payment_status).toBe('partially_paid');
    expect(s.status_detail).toBe('underpaid');
    expect(String(s.actually_paid)).toBe(text(first, 8));
    await pay(p, text(total - first, 8));
    expect((await status(p.id)).payment_status).toBe('confirming');
    await mine('ltc', 2);
    s = await status(p.id);
    expect(s.payment_status).toBe('finished');
    expect(s.status_detail).toBe('none');
    expect(String(s.actually_paid)).toBe(p.amount);
  });

  it('overpaid -> finished with status_detail overpaid', async () => {
    const p = await create('doge', 20);
    const double = text(dec(p.amount, 8) * 2n, 8);
    await pay(p, double);
    await mine('doge', 2);
    const s = await status(p.id);
    expect(s.payment_status).toBe('finished');
    expect(s.status_detail).toBe('overpaid');
    expect(String(s.actually_paid)).toBe(double);
  });

  it('pays XRP only with the right destination tag, and never counts a wrong token', async () => {
    const x = await create('xrp', 30);
    expect(x.extraId).toMatch(/^\d+$/);
    await pay({ ...x, extraId: null }, x.amount); // no tag: cannot be attributed
    expect((await status(x.id)).payment_status).toBe('waiting');
    await pay(x, x.amount);
    await mine('xrp', 2);
    expect((await status(x.id)).payment_status).toBe('finished');

    const e = await create('eth', 30);
    await pay(e, '1000', 'USDTERC20'); // right address, wrong asset
    await mine('eth', 2);
    const s = await status(e.id);
    expect(s.payment_status).toBe('waiting');
    expect(s.actually_paid).toBe(0);
  });

  it('no deposit -> expired at valid_until, by the service itself', async () => {
    const p = await create();
    clock.advance(1200 * 1000 + 900 * 1000 - 1000);
    await new Promise((r) => setTimeout(r, 100));
    expect((await status(p.id)).payment_status).toBe('waiting'); // inside the grace window
    clock.advance(2000);
    const s = await until(
      () => status(p.id),
      (v) => v.payment_status === 'expired',
    );
    expect(s.payment_status).toBe('expired');
    expect((await eventsOf(p.id)).map((e) => e.status)).toEqual(['expired']);
  });

  it('a deposit first seen after valid_until is recorded as paid_late, never dropped', async () => {
    const p = await create();
    clock.advance(2200 * 1000);
    await until(
      () => status(p.id),
      (v) => v.payment_status === 'expired',
    );
    await pay(p, p.amount);
    let s = await status(p.id);
    expect(s.payment_status).toBe('expired');
    expect(s.status_detail).toBe('paid_late');
    expect(String(s.actually_paid)).toBe(p.amount);
    await mine('btc', 2);
    s = await status(p.id);
    expect(s.payment_status).toBe('expired');
    const ev = await eventsOf(p.id);
    expect(ev.map((e) => e.status)).toEqual(['expired', 'expired']);
    expect(JSON.parse(ev[1]?.payload ?? '{}').payment.status_detail).toBe('paid_late');
  });

  it('a deposit in a block timed before valid_until, seen only after the expiry sweep, re-opens the payment and counts in full', async () => {
    const p = await create();
    const db = t.service.deps.db;
    const balance = async () => {
      const b = (await t.api('/api/v1/balances')).text;
      const m = /"currency":"BTC","amount":([0-9.]+)/.exec(b);
      return dec(m?.[1] ?? '0', 8);
    };
    const before = await balance();
    // The watcher is held back, as a node that cannot be reached is: the chain moves on without it.
    const watcher = t.service.watchers.get('sandbox:btc');
    if (!watcher) throw new Error('no sandbox watcher for btc');
    watcher.stop();
    await watcher.sync();
    try {
      const asset = t.service.deps.catalog.get('BTC');
      if (!asset) throw new Error('BTC left the catalog');
      clock.advance((1200 + 900) * 1000 - 8000); // 8 s before valid_until
      await sandboxSend(db, clock, { asset, address: p.address, extraId: null, units: dec(p.amount, 8) });
      await sandboxMine(db, clock, 'btc', 2);
      clock.advance(10_000);
      const expired = await until(
        () => status(p.id),
        (v) => v.payment_status === 'expired',
      );
      expect(expired.payment_status).toBe('expired');

      await watcher.sync();
      const s = await status(p.id);
      expect(s.payment_status).toBe('finished');
      expect(s.status_detail).toBe('none');
      expect(/"actually_paid":([0-9.]+)/.exec((await t.api(`/api/v1/payments/${p.id}`)).text)?.[1]).toBe(p.amount);
      expect((await eventsOf(p.id)).map((e) => e.status)).toEqual(['expired', 'confirming', 'finished']);
      expect((await balance()) - before).toBe(dec(p.amount, 8));
    } finally {
      watcher.start();
    }
  });

  it('a deposit seen in the grace window counts in full', async () => {
    const p = await create('sol', 10);
    clock.advance(1200 * 1000 + 60 * 1000); // past expires_at, before valid_until
    await pay(p, p.amount);
    await mine('sol', 2);
    const s = await status(p.id);
    expect(s.payment_status).toBe('finished');
    expect(s.status_detail).toBe('none');
  });
});

describe('GET /payments/{id} with several service processes on one store', () => {
  it('answers a change another service process made at once', async () => {
    const p = await create();
    expect((await status(p.id)).payment_status).toBe('waiting');
    // A second process on the same store (its own connection) moves the payment through the one status writer.
    const other = openStore(t.service.config.DATABASE_URL);
    try {
      await other.db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('payments').selectAll().where('id', '=', p.id).executeTakeFirstOrThrow();
        await writeChange(
          trx,
          row,
          { status: 'expired', status_detail: 'none', actually_paid_units: '0', confirmed_at: null },
          clock.now(),
        );
      });
    } finally {
      await other.close();
    }
    // Every read goes to the store: the very next one sees it.
    const seen = await status(p.id);
    expect(seen.payment_status).toBe('expired');
  });
});

describe('sandbox routes', () => {
  it('validate their input and refuse live keys', async () => {
    const bad = await t.api('/api/v1/sandbox/transfers', {
      body: { currency: 'BTC', address: 'not-an-address', amount: '1' },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.errors.address).toBeDefined();
    const tooPrecise = await t.api('/api/v1/sandbox/transfers', {
      body: { currency: 'BTC', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', amount: '0.000000001' },
    });
    expect(tooPrecise.status).toBe(422);
    const xrp = await create('xrp', 30);
    const bigTag = await t.api('/api/v1/sandbox/transfers', {
      body: { currency: 'XRP', address: xrp.address, amount: '1', extra_id: '4294967296' },
    });
    expect(bigTag.status).toBe(422);
    expect(bigTag.json.errors.extra_id).toBeDefined();
    const { createMerchant } = await import('../core/merchants/merchants.js');
    const live = await createMerchant(t.service.deps.db, clock, { name: 'Live', mode: 'live' });
    const r = await t.api('/api/v1/sandbox/blocks', { body: {}, key: live.secret_key });
    expect(r.status).toBe(400);
  });

  it('mine blocks for many callers at once: each gets its own blocks, one chain with no height twice', async () => {
    const network = 'doge';
    const before = (await t.api('/api/v1/sandbox/blocks', { body: { network, count: 1 } })).json.data;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => t.api('/api/v1/sandbox/blocks', { body: { network, count: 2 } })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    const rows = await t.service.deps.db
      .selectFrom('sandbox_blocks')
      .select(['height', 'hash', 'parent_hash'])
      .where('network', '=', network)
      .orderBy('height')
      .execute();
    expect(rows.at(-1)?.height).toBe(before.height + 16);
    // Each caller is told the tip its own two blocks reached: eight different heights.
    expect(new Set(answers.map((a) => a.json.data.height)).size).toBe(8);
    for (let i = 1; i < rows.length; i++) {
      expect(rows[i]?.height).toBe((rows[i - 1]?.height ?? 0) + 1);
      expect(rows[i]?.parent_hash).toBe(rows[i - 1]?.hash);
    }
  });
});
