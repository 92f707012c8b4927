import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../core/clock.js';
import { createMerchant } from '../core/merchants/merchants.js';
import { startReceiver, type TestReceiver } from '../core/webhooks/testing/receiver.js';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { until } from '../server/testing/until.js';

let t: TestService;
let rcv: TestReceiver;
beforeAll(async () => {
  rcv = await startReceiver('unknown-yet');
  t = await startTestService({ start: true, webhookUrl: rcv.url });
  rcv.secret = t.merchant.webhook_secret;
});
afterAll(async () => {
  await t?.close();
  await rcv?.close();
});

const CUSTOMER_BTC = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

/** A BTC payment paid with `paid` (exact decimal text) and mined past its confirmations; its id and pay amount. */
async function paidPayment(paid?: (payAmount: string) => string) {
  const r = await t.api('/api/v1/payments', { body: { amount: 100, currency: 'btc', email: 'bob@example.com' } });
  expect(r.status, r.text).toBe(201);
  const id = r.json.data.payment.payment_id as string;
  const payAmount = /"pay_amount":([0-9.]+)/.exec(r.text)?.[1] as string;
  const send = await t.api('/api/v1/sandbox/transfers', {
    body: { currency: 'btc', address: r.json.data.blockchain.pay_address, amount: paid ? paid(payAmount) : payAmount },
  });
  expect(send.status, send.text).toBe(201);
  expect((await t.api('/api/v1/sandbox/blocks', { body: { network: 'btc', count: 2 } })).status).toBe(200);
  const s = await t.api(`/api/v1/payments/${id}`);
  expect(['finished', 'partially_paid']).toContain(s.json.data.payment_status);
  const address = r.json.data.blockchain.pay_address as string;
  return { id, address, payAmount, units: toSats(payAmount), status: s.json.data }; // units: the amount due
}

function toSats(text: string): bigint {
  const [i, f = ''] = text.split('.');
  return BigInt(i + f.padEnd(8, '0'));
}

async function refundRows(paymentId: string) {
  return t.service.deps.db.selectFrom('refunds').selectAll().where('payment_id', '=', paymentId).execute();
}

async function heldOf(paymentId: string) {
  const row = await t.service.deps.db
    .selectFrom('refund_totals')
    .select('held_units')
    .where('payment_id', '=', paymentId)
    .executeTakeFirst();
  return row?.held_units;
}

describe('refunds: happy path', () => {
  it('returns only confirmed deposits: an extra deposit still in the mempool is refundable once it confirms', async () => {
    const p = await paidPayment();
    const extra = 10_000n;
    const send = await t.api('/api/v1/sandbox/transfers', {
      body: { currency: 'btc', address: p.address, amount: '0.0001' },
    });
    expect(send.status, send.text).toBe(201);
    // The watcher counts it in actually_paid at once, unconfirmed.
    await until(
      async () => toSats(String((await t.api(`/api/v1/payments/${p.id}`)).json.data.actually_paid)),
      (paid) => paid === p.units + extra,
    );
    const early = await t.api(`/api/v1/payments/${p.id}/refunds`, {
      body: { amount_units: (p.units + 1n).toString() },
    });
    expect(early.status, early.text).toBe(422);
    expect(early.json.errors.amount_units[0]).toContain(`of ${p.units} (`);
    expect(await refundRows(p.id)).toHaveLength(0);

    expect((await t.api('/api/v1/sandbox/blocks', { body: { network: 'btc', count: 2 } })).status).toBe(200);
    const later = await until(
      () => t.api(`/api/v1/payments/${p.id}/refunds`, { body: { amount_units: (p.units + extra).toString() } }),
      (r) => r.status === 201,
    );
    expect(later.json.data.amount_units).toBe((p.units + extra).toString());
  });

  it('refunds all that was received by default, awaiting an address, with a signed refund.updated webhook', async () => {
    const p = await paidPayment();
    const r = await t.api(`/api/v1/payments/${p.id}/refunds`, { body: { reason: 'Returned mugs' } });
    expect(r.status, r.text).toBe(201);
    // The creation's answer also says which claim link was made with it (none here); reads never show one.
    const { claim_link, ...d } = r.json.data;
    expect(claim_link).toBeNull();
    expect(d).toMatchObject({
      payment_id: p.id,
      refund_status: 'awaiting_address',
      sequence: 1,
      amount_units: p.units.toString(),
      currency: 'BTC',
      network: 'btc',
      address: null,
      address_confirmed: false,
      reason: 'Returned mugs',
      txid: null,
      send: null,
    });
    // The same digits as the payment's pay_amount, written as an exact JSON number.
    expect(r.text).toContain(`"amount":${p.payAmount}`);
    expect(d.refund_id).toMatch(/^rfd_/);

    const got = await t.api(`/api/v1/refunds/${d.refund_id}`);
    expect(got.status).toBe(200);
    expect(got.json.data).toEqual(d);
    const list = await t.api(`/api/v1/payments/${p.id}/refunds`);
    expect(list.json.data.refunds).toEqual([d]);

    const [hook] = await rcv
      .waitFor((all) => all.some((x) => x.json?.event === 'refund.updated' && x.json.refund.refund_id === d.refund_id))
      .then((all) => all.filter((x) => x.json?.event === 'refund.updated' && x.json.refund.refund_id === d.refund_id));
    expect(hook?.verified).toBe(true);
    expect(hook?.headers['x-service-event']).toBe('refund.updated');
    // The webhook carries the same view, without `send` (what to send is read from the API).
    const { send: _send, ...inEvent } = d;
    expect(hook?.json.refund).toEqual(inEvent);
    expect(hook?.json.merchant).toEqual({ user_id: t.merchant.merchant_id });
    // The delivery log names the event for what it is.
    const logged = await t.api(`/api/v1/webhook-deliveries?payment_id=${p.id}`);
    expect(logged.json.data.deliveries.map((x: { event: string }) => x.event)).toContain('refund.updated');
  });

  it('takes partial refunds in exact base units with a merchant-entered address (ready at once), up to what is left', async () => {
    const p = await paidPayment();
    const first = await t.api(`/api/v1/payments/${p.id}/refunds`, {
      body: { amount_units: '1000', address: CUSTOMER_BTC.toUpperCase() },
    });
    expect(first.status, first.text).toBe(201);
    expect(first.json.data).toMatchObject({
      refund_status: 'ready',
      amount_units: '1000',
      amount: 0.00001,
      address: CUSTOMER_BTC,
      address_source: 'merchant',
      address_confirmed: true,
      // What the merchant's wallet sends: the same digits as `amount`, in a BIP21 URI.
      send: { uri: `bitcoin:${CUSTOMER_BTC}?amount=0.00001`, evm_transaction: null },
    });
    const rest = await t.api(`/api/v1/payments/${p.id}/refunds`, { body: {} });
    expect(rest.status, rest.text).toBe(201);
    expect(rest.json.data.amount_units).toBe((p.units - 1000n).toString());
    expect(await heldOf(p.id)).toBe(p.units.toString());
  });

  it('refunds the excess of an overpaid payment by default', async () => {
    const p = await paidPayment((due) => (Number(due) + 0.0001).toFixed(8));
    expect(p.status.status_detail).toBe('overpaid');
    const r = await t.api(`/api/v1/payments/${p.id}/refunds`, { body: { address: CUSTOMER_BTC } });
    expect(r.status, r.text).toBe(201);
    expect(r.json.data.amount_units).toBe('10000');
    // The excess returned, the next refund without an amount is all the rest.
    const rest = await t.api(`/api/v1/payments/${p.id}/refunds`, { body: {} });
    expect(rest.json.data.amount_units).toBe(p.units.toString());
  });

  it('cancels a refund not yet sent, which frees its amount; a cancelled refund cannot be cancelled again', async () => {
    const p = await paidPayment();
    const r = await t.api(`/api/v1/payments/${p.id}/refunds`, { body: { amount_units: '500' } });
    const id = r.json.data.refund_id as string;
    const c = await t.api(`/api/v1/refunds/${id}/cancel`, { method: 'POST' });
    expect(c.status, c.text).toBe(200);
    expect(c.json.data).toMatchObject({ refund_status: 'cancelled', sequence: 2 });
    expect(c.json.data.cancelled_at).toEqual(expect.any(String));
    expect(await heldOf(p.id)).toBe('0');
    const again = await t.api(`/api/v1/refunds/${id}/cancel`, { method: 'POST' });
    expect(again.status).toBe(400);
    const all = await t.api(`/api/v1/payments/${p.id}/refunds`, { body: {} });
    expect(all.json.data.amount_units).toBe(p.units.toString());
  });
});

describe('refunds: what the wallet sends', () => {
  it('an ERC-20 refund is the token transfer of the exact units to the customer, as EIP-681 and as a transaction', async () => {
    const r = await t.api('/api/v1/payments', { body: { amount: 20, currency: 'usdterc20', email: 'e@example.com' } });
    expect(r.status, r.text).toBe(201);
    const { pay_address: address, pay_amount: amount, smart_contract: contract } = r.json.data.blockchain;
    expect(
      (await t.api('/api/v1/sandbox/transfers', { body: { currency: 'usdterc20', address, amount } })).status,
    ).toBe(201);
    expect((await t.api('/api/v1/sandbox/blocks', { body: { network: 'eth', count: 2 } })).status).toBe(200);
    const customer = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
    const refund = await t.api(`/api/v1/payments/${r.json.data.payment.payment_id}/refunds`, {
      body: { amount_units: '1234567', address: customer.toLowerCase() },
    });
    expect(refund.status, refund.text).toBe(201);
    expect(refund.json.data.address).toBe(customer);
    expect(refund.json.data.send).toEqual({
      uri: `ethereum:${contract}@1/transfer?address=${customer}&uint256=1234567`,
      evm_transaction: {
        chain_id: 1,
        to: contract,
        value: '0',
        // transfer(address,uint256): selector, the address and 1234567 (0x12d687), each in a 32-byte word.
        data: `0xa9059cbb${'0'.repeat(24)}${customer.slice(2).toLowerCase()}${'12d687'.padStart(64, '0')}`,
      },
    });
  });
});

describe('refunds: concurrency', () => {
  it('20 partial refunds created at the same moment never add up to more than was received', async () => {
    const p = await paidPayment();
    const each = p.units / 7n; // 7 fit, the 8th cannot: at most 7 of the 20 may succeed
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.api(`/api/v1/payments/${p.id}/refunds`, { body: { amount_units: each.toString() } }),
      ),
    );
    const created = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status !== 201);
    expect(created).toHaveLength(7);
    for (const a of refused) {
      expect(a.status, a.text).toBe(422);
      expect(a.json.errors.amount_units[0]).toContain(`at most ${p.units - 7n * each} (`);
    }
    const rows = await refundRows(p.id);
    expect(rows).toHaveLength(7);
    expect(rows.reduce((s, r) => s + BigInt(r.amount_units), 0n)).toBe(7n * each);
    expect(await heldOf(p.id)).toBe((7n * each).toString());
  });
});

describe('refunds: bad input writes nothing', () => {
  it('refuses an amount above what can still be refunded, naming the limit in exact units', async () => {
    const p = await paidPayment();
    const r = await t.api(`/api/v1/payments/${p.id}/refunds`, { body: { amount_units: (p.units + 1n).toString() } });
    expect(r.status).toBe(422);
    expect(r.json.errors.amount_units).toEqual([
      `Too much: at most ${p.units} (${p.payAmount} BTC) of ${p.units} (${p.payAmount} BTC) received can still be refunded`,
    ]);
    expect(await refundRows(p.id)).toEqual([]);
    expect(await heldOf(p.id)).toBeUndefined();
  });

  it('refuses an address of another network and one whose checksum fails', async () => {
    const p = await paidPayment();
    const evm = await t.api(`/api/v1/payments/${p.id}/refunds`, {
      body: { address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045' },
    });
    expect(evm.status).toBe(422);
    expect(evm.json.errors.address[0]).toMatch(/^Not a btc address for BTC/);
    // The last character changed: the shape holds, the bech32 checksum does not.
    const typo = await t.api(`/api/v1/payments/${p.id}/refunds`, {
      body: { address: `${CUSTOMER_BTC.slice(0, -1)}${CUSTOMER_BTC.endsWith('q') ? 'p' : 'q'}` },
    });
    expect(typo.status).toBe(422);
    expect(typo.json.errors.address[0]).toContain('checksum');
    expect(await refundRows(p.id)).toEqual([]);
    expect(await heldOf(p.id)).toBeUndefined();
  });

  it('refuses a refund of a payment that received nothing, and malformed amounts', async () => {
    const r = await t.api('/api/v1/payments', { body: { amount: 10, currency: 'btc', email: 'x@example.com' } });
    const id = r.json.data.payment.payment_id as string;
    const none = await t.api(`/api/v1/payments/${id}/refunds`, { body: {} });
    expect(none.status).toBe(422);
    expect(none.json.errors.payment_id[0]).toContain('nothing was received');
    const p = await paidPayment();
    for (const amount_units of ['0', '1.5', '-3', '']) {
      const bad = await t.api(`/api/v1/payments/${p.id}/refunds`, { body: { amount_units } });
      expect(bad.status, amount_units).toBe(422);
      expect(Object.keys(bad.json.errors)).toEqual(['amount_units']);
    }
    expect(await refundRows(p.id)).toEqual([]);
  });
});

describe('refunds: auth', () => {
  it("reads another merchant's payment and refund as missing", async () => {
    const p = await paidPayment();
    const mine = await t.api(`/api/v1/payments/${p.id}/refunds`, { body: { amount_units: '1' } });
    const other = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Other', mode: 'test' });
    const key = other.secret_key;
    expect((await t.api(`/api/v1/refunds/${mine.json.data.refund_id}`, { key })).status).toBe(404);
    expect((await t.api(`/api/v1/payments/${p.id}/refunds`, { key })).status).toBe(404);
    expect((await t.api(`/api/v1/payments/${p.id}/refunds`, { key, body: {} })).status).toBe(404);
    expect((await t.api(`/api/v1/refunds/${mine.json.data.refund_id}/cancel`, { key, method: 'POST' })).status).toBe(
      404,
    );
    expect((await t.api(`/api/v1/refunds/${mine.json.data.refund_id}`, { key: null })).status).toBe(401);
    expect(await refundRows(p.id)).toHaveLength(1);
  });
});

describe('refunds seen on chain (the watcher that follows the chain for deposits)', () => {
  async function send(address: string, units: bigint) {
    const amount = `${units / 100_000_000n}.${(units % 100_000_000n).toString().padStart(8, '0')}`;
    const r = await t.api('/api/v1/sandbox/transfers', { body: { currency: 'btc', address, amount } });
    expect(r.status, r.text).toBe(201);
    return r.json.data.txid as string;
  }
  const mine = async () =>
    expect((await t.api('/api/v1/sandbox/blocks', { body: { network: 'btc', count: 2 } })).status).toBe(200);
  const read = async (id: string) => (await t.api(`/api/v1/refunds/${id}`)).json.data;

  it('a partial refund, then the rest: each sent then confirmed exactly; the payment becomes refunded with its webhook', async () => {
    // Its own customer address: other tests' transfers to the shared one must not reach this payment's refunds.
    const customer = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
    const p = await paidPayment();
    const first = (
      await t.api(`/api/v1/payments/${p.id}/refunds`, { body: { amount_units: '4000', address: customer } })
    ).json.data;
    const other = await send(customer, 3999n);
    expect(await read(first.refund_id)).toMatchObject({
      refund_status: 'ready',
      txid: null,
      other_transfers: [{ txid: other, amount_units: '3999', amount: 0.00003999, confirmed: false }],
    });
    const txid = await send(customer, 4000n);
    expect(await read(first.refund_id)).toMatchObject({ refund_status: 'sent', txid, confirmed_at: null });
    await mine();
    const done = await read(first.refund_id);
    expect(done).toMatchObject({ refund_status: 'confirmed', txid });
    expect(done.other_transfers).toEqual([{ txid: other, amount_units: '3999', amount: 0.00003999, confirmed: true }]);
    // Partly refunded: the payment keeps its status.
    expect((await t.api(`/api/v1/payments/${p.id}`)).json.data.payment_status).toBe('finished');

    const rest = (await t.api(`/api/v1/payments/${p.id}/refunds`, { body: { address: customer } })).json.data;
    expect(rest.amount_units).toBe((p.units - 4000n).toString());
    const restTx = await send(customer, p.units - 4000n);
    await mine();
    expect(await read(rest.refund_id)).toMatchObject({ refund_status: 'confirmed', txid: restTx });
    expect((await t.api(`/api/v1/payments/${p.id}`)).json.data.payment_status).toBe('refunded');

    const hooks = await rcv.waitFor((all) =>
      all.some(
        (x) =>
          x.json?.event === 'payment.updated' &&
          x.json.payment.payment_id === p.id &&
          x.json.payment.payment_status === 'refunded',
      ),
    );
    const statuses = hooks
      .filter((x) => x.json?.event === 'refund.updated' && x.json.refund.refund_id === first.refund_id)
      .map((x) => [x.json.refund.sequence, x.json.refund.refund_status]);
    expect(statuses.sort()).toEqual([
      [1, 'ready'],
      [2, 'sent'],
      [3, 'confirmed'],
    ]);
    expect(hooks.every((x) => x.verified)).toBe(true);
  });

  it('one transfer completes one refund: two open refunds of one amount to one address take one transfer each, oldest first', async () => {
    const customer = 'bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h';
    const p = await paidPayment();
    const made = async () =>
      (await t.api(`/api/v1/payments/${p.id}/refunds`, { body: { amount_units: '2500', address: customer } })).json
        .data;
    const older = await made();
    const newer = await made();
    const first = await send(customer, 2500n);
    await mine();
    expect(await read(older.refund_id)).toMatchObject({ refund_status: 'confirmed', txid: first });
    expect(await read(newer.refund_id)).toMatchObject({ refund_status: 'ready', txid: null, other_transfers: [] });
    const second = await send(customer, 2500n);
    await mine();
    expect(await read(newer.refund_id)).toMatchObject({ refund_status: 'confirmed', txid: second });
    expect((await read(older.refund_id)).txid).toBe(first);
  });

  it('a cancelled refund is completed by nothing: a transfer to its address is not even recorded', async () => {
    const customer = 'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3';
    const p = await paidPayment();
    const cancelled = (
      await t.api(`/api/v1/payments/${p.id}/refunds`, { body: { amount_units: '700', address: customer } })
    ).json.data;
    expect((await t.api(`/api/v1/refunds/${cancelled.refund_id}/cancel`, { method: 'POST' })).status).toBe(200);
    await send(customer, 700n);
    await mine();
    expect(await read(cancelled.refund_id)).toMatchObject({
      refund_status: 'cancelled',
      txid: null,
      other_transfers: [],
    });
  });
});

describe('refunds seen on chain, whatever the block’s own time says', () => {
  it('a transfer in a block stamped a moment before the refund was made still completes it (block times are whole seconds set by miners)', async () => {
    const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
    const s = await startTestService({ start: true, clock });
    try {
      const r = await s.api('/api/v1/payments', { body: { amount: 100, currency: 'btc', email: 'ann@example.com' } });
      expect(r.status, r.text).toBe(201);
      const id = r.json.data.payment.payment_id as string;
      const amount = /"pay_amount":([0-9.]+)/.exec(r.text)?.[1] as string;
      const pay = { currency: 'btc', address: r.json.data.blockchain.pay_address, amount };
      expect((await s.api('/api/v1/sandbox/transfers', { body: pay })).status).toBe(201);
      const mine = { body: { network: 'btc', count: 2 } };
      expect((await s.api('/api/v1/sandbox/blocks', mine)).status).toBe(200);
      clock.advance(10_000);
      const customer = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
      const refund = (
        await s.api(`/api/v1/payments/${id}/refunds`, { body: { amount_units: '5000', address: customer } })
      ).json.data;
      expect(refund.refund_status).toBe('ready');
      // The chain's stamp trails the refund by a few seconds: the same moment to a miner's clock.
      clock.advance(-3_000);
      const send = { currency: 'btc', address: customer, amount: '0.00005' };
      const sent = await s.api('/api/v1/sandbox/transfers', { body: send });
      expect(sent.status, sent.text).toBe(201);
      expect((await s.api('/api/v1/sandbox/blocks', mine)).status).toBe(200);
      const done = (await s.api(`/api/v1/refunds/${refund.refund_id}`)).json.data;
      expect(done).toMatchObject({ refund_status: 'confirmed', txid: sent.json.data.txid });
    } finally {
      await s.close();
    }
  });
});
