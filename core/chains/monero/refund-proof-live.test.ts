import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DashClient, userOf } from '../../../dashboard-api/testing/client.js';
import { startTestService, type TestService } from '../../../server/testing/harness.js';
import { until } from '../../../server/testing/until.js';
import { startRatesServer } from '../evm/testing/rates-server.js';
import { parseViewKey, subaddressAt } from './monero.js';
import { setViewKey } from './monero-keys.js';
import { type Monerod, startMonerod } from './testing/monerod.js';
import { randomWalletKeys } from './testing/wallet-keys.js';

/*
 * A Monero refund proved by its transaction key (issue 30) on a real `monerod --regtest --offline`: the payer wallet
 * (monero-wallet-rpc) pays the merchant, then sends refunds as the merchant's wallet would and gives each transfer's
 * tx key (`transfer` with get_tx_key). The service over HTTP accepts the real key of a transfer of the exact amount to
 * the customer's subaddress and refuses a wrong key, another amount and another address with a 422 naming the
 * field; monero-wallet-rpc's own `check_tx_key` is the independent check of the amounts our arithmetic reads.
 */

const CONFIRMATIONS = 2;
/** 0.05 XMR in piconero. */
const REFUND = 50_000_000_000n;

let node: Monerod;
let starting: Promise<Monerod> | undefined;
let rates: { url: string; close(): Promise<void> };
let configFile: string;
let t: TestService;
let owner: DashClient;

beforeAll(async () => {
  starting = startMonerod();
  node = await starting;
  rates = await startRatesServer({ monero: 150 });
  configFile = join(tmpdir(), `chains-xmr-refund-${randomBytes(4).toString('hex')}.json`);
  const xmr = { rpcUrl: node.url, confirmations: CONFIRMATIONS, pollIntervalMs: 100, timeoutMs: 5000 };
  writeFileSync(configFile, JSON.stringify({ networks: { xmr } }));
  t = await startTestService({
    mode: 'live',
    start: true,
    env: { CHAINS_CONFIG: configFile, RATES_BASE_URL: rates.url, RATES_STALE_SECONDS: '86400', LOG_LEVEL: 'silent' },
  });
  const keys = randomWalletKeys();
  const deps = t.service.deps;
  expect((await setViewKey(deps.db, deps.clock, t.merchant.merchant_id, keys.address, keys.viewKey)).ok).toBe(true);
  owner = await userOf(t, t.merchant.merchant_id, 'owner@shop.example');
  await until(
    async () => (await t.api('/api/v1/currencies')).text,
    (text) => text.includes('"XMR"'),
  );
}, 300_000);

afterAll(async () => {
  await t?.close();
  await rates?.close();
  await starting?.then(
    (n) => n.stop(),
    () => undefined,
  );
  if (configFile) rmSync(configFile, { force: true });
}, 300_000);

/** A transfer from the payer wallet with its tx key, as the merchant's wallet makes a refund. */
async function send(address: string, amount: bigint) {
  await node.payer.call('refresh');
  return node.payer.call<{ tx_hash: string; tx_key: string }>('transfer', {
    destinations: [{ amount: Number(amount), address }],
    get_tx_key: true,
  });
}

/** Mines until the tx is in a block, then the confirmations, and waits until the service's watcher read them. */
async function mined(txid: string) {
  const height = await node.mineUntilIn(txid);
  return height;
}

const proveApi = (refundId: string, txid: string, txKey: string) =>
  t.api(`/api/v1/refunds/${refundId}/monero-proof`, { body: { txid, tx_key: txKey } });

async function refundState(id: string) {
  const r = await t.api(`/api/v1/refunds/${id}`);
  expect(r.status, r.text).toBe(200);
  return r.json.data as { refund_status: string; txid: string | null; amount_units: string };
}

describe('Monero refunds proved by transaction key (monerod regtest)', () => {
  it("accepts a real transfer's tx key to the customer's subaddress; a wrong key, another amount and another address are refused naming the field", async () => {
    // The customer's payment: $30 at $150 = 0.2 XMR, confirmed.
    const p = (await t.api('/api/v1/payments', { body: { amount: 30, currency: 'XMR', email: 'c@buyer.example' } }))
      .json.data;
    const paid = await node.pay([{ address: p.blockchain.pay_address, amount: 200_000_000_000n }]);
    await mined(paid);
    await node.mine(CONFIRMATIONS);
    const paymentId: string = p.payment.payment_id;
    await until(
      async () => (await t.api(`/api/v1/payments/${paymentId}`)).json.data.payment_status,
      (s) => s === 'finished',
      60_000,
    );

    // The customer's own wallet: the refund goes to one of its subaddresses (wallet2 then makes R = r*D).
    const customer = randomWalletKeys();
    const ck = parseViewKey(customer.address, customer.viewKey);
    if (!ck.ok) throw new Error('customer keys');
    const sub = subaddressAt(ck.value, 3);
    const created = await t.api(`/api/v1/payments/${paymentId}/refunds`, {
      body: { amount_units: REFUND.toString(), address: sub },
    });
    expect(created.status, created.text).toBe(201);
    const refundId: string = created.json.data.refund_id;
    expect(created.json.data.send.uri).toBe(`monero:${sub}?tx_amount=0.05`);

    const real = await send(sub, REFUND);
    // Not mined yet: refused until it is.
    const early = await proveApi(refundId, real.tx_hash, real.tx_key);
    expect(early.status, early.text).toBe(422);
    expect(early.json.errors.txid.join(' ')).toMatch(/not in a block yet/);
    const less = await send(sub, REFUND - 10_000_000_000n);
    const elsewhere = await send(randomWalletKeys().address, REFUND);
    for (const tx of [real, less, elsewhere]) await mined(tx.tx_hash);

    // monero-wallet-rpc's own check_tx_key: what our arithmetic must read.
    const check = (txid: string, txKey: string, address: string) =>
      node.payer.call<{ received: number }>('check_tx_key', { txid, tx_key: txKey, address });
    expect(BigInt((await check(real.tx_hash, real.tx_key, sub)).received)).toBe(REFUND);
    expect(BigInt((await check(less.tx_hash, less.tx_key, sub)).received)).toBe(REFUND - 10_000_000_000n);

    // A wrong key: another transaction's.
    const wrong = await proveApi(refundId, real.tx_hash, less.tx_key);
    expect(wrong.status, wrong.text).toBe(422);
    expect(Object.keys(wrong.json.errors)).toEqual(['tx_key']);
    // Another amount: the exact piconero of both named.
    const other = await proveApi(refundId, less.tx_hash, less.tx_key);
    expect(other.status, other.text).toBe(422);
    expect(other.json.errors.txid.join(' ')).toContain('40000000000 (0.04 XMR)');
    expect(other.json.errors.txid.join(' ')).toContain('50000000000 (0.05 XMR)');
    // Another address: the key is the transaction's, but it pays nothing to the refund's address.
    const away = await proveApi(refundId, elsewhere.tx_hash, elsewhere.tx_key);
    expect(away.status, away.text).toBe(422);
    expect(away.json.errors.txid.join(' ')).toContain(`pays nothing to the refund’s address ${sub}`);
    // Malformed input: 422 on the field, before monerod is asked.
    const bad = await proveApi(refundId, 'zz', real.tx_key);
    expect(Object.keys(bad.json.errors)).toEqual(['txid']);
    // Refusals wrote nothing.
    expect((await refundState(refundId)).refund_status).toBe('ready');
    const rows = await t.service.deps.db
      .selectFrom('refund_transfers')
      .selectAll()
      .where('refund_id', '=', refundId)
      .execute();
    expect(rows).toEqual([]);

    // The real key, from the dashboard (owner, audited): sent, then confirmed by the watcher as blocks come.
    const proved = await owner.call(`/merchants/${t.merchant.merchant_id}/refunds/${refundId}/monero-proof`, {
      body: { txid: real.tx_hash, tx_key: real.tx_key },
    });
    expect(proved.status, proved.text).toBe(200);
    expect(['sent', 'confirmed']).toContain(proved.json.data.refund_status);
    expect(proved.json.data.txid).toBe(real.tx_hash);
    const audit = await t.service.deps.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'refund.prove')
      .execute();
    expect(audit.map((a) => a.target)).toEqual([refundId]);
    await node.mine(CONFIRMATIONS);
    await until(
      () => refundState(refundId),
      (s) => s.refund_status === 'confirmed',
      60_000,
    );

    // A reorg takes the transaction's block and a new chain carries it again: the watcher's view (the merchant's
    // outputs only) never shows it, so the watcher follows it by its txid. The refund is confirmed again in its new
    // block without a second proof, rather than falling back to `ready`, which would invite a second sending.
    const row = async () =>
      (
        await t.service.deps.db.selectFrom('refund_transfers').selectAll().where('refund_id', '=', refundId).execute()
      )[0];
    const before = await row();
    await node.popBlocks((await node.height()) - (before?.block_height as number) + 1);
    expect(await node.inPool(real.tx_hash)).toBe(true);
    const remined = await node.mineUntilIn(real.tx_hash);
    await node.mine(CONFIRMATIONS);
    const after = await until(row, (r) => r?.block_hash !== before?.block_hash && r?.block_height === remined, 60_000);
    expect(after).toMatchObject({ removed: 0, txid: real.tx_hash });
    expect(await refundState(refundId)).toMatchObject({ refund_status: 'confirmed', txid: real.tx_hash });

    // The same transaction cannot prove a second refund.
    const second = await t.api(`/api/v1/payments/${paymentId}/refunds`, {
      body: { amount_units: REFUND.toString(), address: sub },
    });
    expect(second.status, second.text).toBe(201);
    const again = await proveApi(second.json.data.refund_id, real.tx_hash, real.tx_key);
    expect(again.status, again.text).toBe(422);
    expect(again.json.errors.txid.join(' ')).toMatch(/proved another refund/);
  }, 300_000);
});
