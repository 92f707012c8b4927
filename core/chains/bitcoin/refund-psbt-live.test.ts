import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HDKey } from '@scure/bip32';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userOf } from '../../../dashboard-api/testing/client.js';
import { startTestService, type TestService } from '../../../server/testing/harness.js';
import { until } from '../../../server/testing/until.js';
import { setXpub } from '../../addresses/xpubs.js';
import { startRatesServer } from '../evm/testing/rates-server.js';
import { amountUnits } from './exact-json.js';
import { BitcoinRpc } from './rpc.js';
import { type Litecoind, startLitecoind } from './testing/litecoind.js';

/*
 * Bitcoin-family refunds on a real `litecoind -regtest` (issue 30), through the service over HTTP in live mode: a
 * refund paid from the node's wallet to its BIP21 URI is seen `sent` then `confirmed`; the unsigned PSBT the API gives
 * is signed by a second node wallet holding the merchant's test keys (the node's signer, not ours), broadcast, pays
 * the customer exactly the refund, and is confirmed by the watcher; spent or insufficient outputs refuse the PSBT.
 */

const run = promisify(execFile);
const CONFIRMATIONS = 2;
/** BIP32 version bytes of tpub/tprv: regtest keys of every chain (SLIP-0132). */
const TEST_VERSIONS = { private: 0x04358394, public: 0x043587cf };
/** The merchant's wallet: its master key, as a hardware or software wallet holds it. */
const master = HDKey.fromMasterSeed(randomBytes(32), TEST_VERSIONS);
const ACCOUNT = "m/84'/1'/0'";
const DOGE_ACCOUNT = "m/44'/1'/0'";
const fingerprint = master.fingerprint.toString(16).padStart(8, '0');

let node: Litecoind;
let starting: Promise<Litecoind> | undefined;
let rates: { url: string; close(): Promise<void> };
let configFile: string;
let t: TestService;

beforeAll(async () => {
  starting = startLitecoind();
  node = await starting;
  rates = await startRatesServer({ litecoin: 100, dogecoin: 10 });
  configFile = join(tmpdir(), `chains-ltc-refund-${randomBytes(4).toString('hex')}.json`);
  const ltc = {
    rpcUrl: node.url,
    chain: 'regtest',
    confirmations: CONFIRMATIONS,
    pollIntervalMs: 100,
    timeoutMs: 5000,
    rpcUser: node.user,
    rpcPassword: node.password,
  };
  // Dogecoin is watched on the same node: its regtest P2PKH addresses are Litecoin regtest's (version 0x6f).
  writeFileSync(configFile, JSON.stringify({ networks: { ltc, doge: ltc } }));
  t = await startTestService({
    mode: 'live',
    start: true,
    env: { CHAINS_CONFIG: configFile, RATES_BASE_URL: rates.url, RATES_STALE_SECONDS: '86400', LOG_LEVEL: 'silent' },
  });
  const deps = t.service.deps;
  const account = master.derive(ACCOUNT).publicExtendedKey;
  expect((await setXpub(deps.db, deps.clock, t.merchant.merchant_id, 'ltc', account, 'regtest')).ok).toBe(true);
  const doge = master.derive(DOGE_ACCOUNT).publicExtendedKey;
  expect((await setXpub(deps.db, deps.clock, t.merchant.merchant_id, 'doge', doge, 'regtest')).ok).toBe(true);
  await until(
    async () => (await t.api('/api/v1/currencies')).text,
    (text) => text.includes('"LTC"') && text.includes('"DOGE"'),
  );
}, 120_000);

afterAll(async () => {
  await t?.close();
  await rates?.close();
  await starting?.then(
    (n) => n.stop(),
    () => undefined,
  );
  if (configFile) rmSync(configFile, { force: true });
}, 120_000);

/** A $30 payment (0.3 LTC at $100, 3 DOGE at $10) paid from the node's wallet and confirmed; its id and address index. */
async function paidPayment(currency: 'LTC' | 'DOGE' = 'LTC') {
  const r = await t.api('/api/v1/payments', { body: { amount: 30, currency, email: 'alice@example.com' } });
  expect(r.status, r.text).toBe(201);
  const id: string = r.json.data.payment.payment_id;
  const address: string = r.json.data.blockchain.pay_address;
  const txid = await node.send(address, currency === 'LTC' ? '0.3' : '3');
  await node.mine(CONFIRMATIONS);
  await until(
    async () => (await t.api(`/api/v1/payments/${id}`)).json.data.payment_status,
    (s) => s === 'finished',
  );
  const row = await t.service.deps.db
    .selectFrom('payments')
    .select('address_index')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { id, address, txid, index: Number(row.address_index) };
}

/** A refund with a merchant-entered address: ready at once. */
async function refund(paymentId: string, units: bigint, address: string) {
  const r = await t.api(`/api/v1/payments/${paymentId}/refunds`, {
    body: { amount_units: units.toString(), address },
  });
  expect(r.status, r.text).toBe(201);
  expect(r.json.data.refund_status).toBe('ready');
  return r.json.data as { refund_id: string; send: { uri: string } };
}

async function refundStatus(id: string, want: string) {
  return until(
    async () => (await t.api(`/api/v1/refunds/${id}`)).json.data as { refund_status: string; txid: string | null },
    (r) => r.refund_status === want,
    30_000,
  );
}

/** What a transaction pays `address`, in base units, by the node's decoding. */
async function paidTo(txid: string, address: string): Promise<bigint> {
  const tx = await node.rpc.call<{ vout: { value: string; scriptPubKey: { addresses?: string[] } }[] }>(
    'getrawtransaction',
    [txid, true],
  );
  return tx.vout
    .filter((o) => o.scriptPubKey.addresses?.includes(address))
    .reduce((sum, o) => sum + amountUnits(o.value), 0n);
}

async function derived(descriptor: string, index: number): Promise<string> {
  const info = await node.rpc.call<{ checksum: string }>('getdescriptorinfo', [descriptor]);
  const [a] = await node.rpc.call<string[]>('deriveaddresses', [`${descriptor}#${info.checksum}`, [index, index]]);
  return a as string;
}

/**
 * Signs a PSBT in a node wallet holding the merchant's private keys (receive and change branches of the account, as
 * `wpkh(xprv/84'/1'/0'/0/*)`): Litecoin Core's signer, not ours. Finalises and broadcasts it.
 */
async function signAndBroadcast(kind: 'wpkh' | 'pkh', account: string, index: number, psbt: string) {
  // A wallet of its own per signing (the keys up to this index): a wallet cannot import the same keys twice.
  const name = `merchant-${kind}-${index}`;
  await node.rpc.call('createwallet', [name, false, true]);
  const signer = new BitcoinRpc({
    url: `${node.url}/wallet/${name}`,
    auth: { user: node.user, password: node.password },
    label: 'merchant wallet',
  });
  const requests = [];
  for (const branch of [0, 1]) {
    const desc = `${kind}(${master.privateExtendedKey}/${account}/${branch}/*)`;
    const info = await node.rpc.call<{ checksum: string }>('getdescriptorinfo', [desc]);
    requests.push({ desc: `${desc}#${info.checksum}`, range: [0, index + 5], timestamp: 'now', watchonly: false });
  }
  const imported = await signer.call<{ success: boolean }[]>('importmulti', [requests]);
  expect(imported.map((x) => x.success)).toEqual([true, true]);
  const processed = await signer.call<{ psbt: string; complete: boolean }>('walletprocesspsbt', [psbt]);
  expect(processed.complete).toBe(true);
  const final = await node.rpc.call<{ hex: string; complete: boolean }>('finalizepsbt', [processed.psbt]);
  expect(final.complete).toBe(true);
  return { txid: await node.rpc.call<string>('sendrawtransaction', [final.hex]), hex: final.hex };
}

describe('Bitcoin-family refunds on litecoind', () => {
  it('a refund paid from a wallet to its BIP21 URI is seen sent (with its txid), then confirmed', async () => {
    const p = await paidPayment();
    const customer = await node.newAddress();
    const r = await refund(p.id, 10_000_000n, customer);
    expect(r.send.uri).toBe(`litecoin:${customer}?amount=0.1`);
    const m = /^litecoin:([^?]+)\?amount=([0-9.]+)$/.exec(r.send.uri);
    const txid = await node.send(m?.[1] as string, m?.[2] as string);
    const sent = await refundStatus(r.refund_id, 'sent');
    expect(sent.txid).toBe(txid);
    await node.mine(1);
    // One block is one confirmation of two: still sent.
    const height = await node.rpc.call<number>('getblockcount');
    await until(
      () => t.service.deps.chains.headOf('live:ltc'),
      (h) => h !== null && h >= height,
    );
    expect((await t.api(`/api/v1/refunds/${r.refund_id}`)).json.data.refund_status).toBe('sent');
    await node.mine(1);
    const confirmed = await refundStatus(r.refund_id, 'confirmed');
    expect(confirmed.txid).toBe(txid);
    expect(await paidTo(txid, customer)).toBe(10_000_000n);
  });

  it("the PSBT, signed by a node wallet holding the merchant's keys, pays the customer exactly and is confirmed", async () => {
    const p = await paidPayment();
    const customer = await node.newAddress();
    const r = await refund(p.id, 20_000_000n, customer);
    const got = await t.api(`/api/v1/refunds/${r.refund_id}/psbt?master_fingerprint=${fingerprint}`);
    expect(got.status, got.text).toBe(200);
    const d = got.json.data;
    const [vout] = (
      await t.service.deps.db.selectFrom('deposits').select('log_index').where('payment_id', '=', p.id).execute()
    ).map((x) => x.log_index);
    expect(d.inputs).toEqual([
      { txid: p.txid, vout, amount_units: '30000000', address: p.address, path: `84'/1'/0'/0/${p.index}` },
    ]);
    expect(d.key_origin).toBe('master');
    expect(d.amount_units).toBe('20000000');
    // The account key's change child 1/N, by the node's own derivation.
    const tpub = master.derive(ACCOUNT).publicExtendedKey;
    expect(d.change_address).toBe(await derived(`wpkh(${tpub}/1/*)`, p.index));
    expect(BigInt(d.fee_units) + BigInt(d.change_units) + 20_000_000n).toBe(30_000_000n);
    // Regtest cannot estimate: Litecoin Core's minimum transaction fee (10 litoshi/vB) is the floor.
    expect(d.fee_rate_units_per_vbyte).toBe('10');
    expect(BigInt(d.fee_units)).toBe(10n * BigInt(d.vsize));

    // The node's decoding of the PSBT: what a signer reads.
    const decoded = await node.rpc.call<{
      fee: string;
      inputs: { witness_utxo?: { amount: string }; non_witness_utxo?: unknown; bip32_derivs?: unknown[] }[];
      outputs: { bip32_derivs?: unknown[] }[];
      tx: { vout: { value: string; scriptPubKey: { addresses?: string[] } }[] };
    }>('decodepsbt', [d.psbt]);
    expect(amountUnits(decoded.fee)).toBe(BigInt(d.fee_units));
    expect(decoded.inputs[0]?.witness_utxo?.amount).toBe('0.30000000');
    expect(decoded.inputs[0]?.non_witness_utxo).toBeDefined();
    expect(decoded.inputs[0]?.bip32_derivs).toEqual([
      {
        pubkey: expect.stringMatching(/^0[23][0-9a-f]{64}$/),
        master_fingerprint: fingerprint,
        path: `m/84'/1'/0'/0/${p.index}`,
      },
    ]);
    expect(decoded.outputs[1]?.bip32_derivs).toEqual([
      expect.objectContaining({ master_fingerprint: fingerprint, path: `m/84'/1'/0'/1/${p.index}` }),
    ]);
    const toCustomer = decoded.tx.vout.filter((o) => o.scriptPubKey.addresses?.includes(customer));
    expect(toCustomer.map((o) => amountUnits(o.value))).toEqual([20_000_000n]);

    const { txid, hex } = await signAndBroadcast('wpkh', "84'/1'/0'", p.index, d.psbt);
    const final = { hex };
    const signed = await node.rpc.call<{ vsize: number }>('decoderawtransaction', [final.hex]);
    // The estimate counts signatures at their longest: never below the real size, at most a byte per input above.
    expect(signed.vsize).toBeLessThanOrEqual(d.vsize);
    expect(signed.vsize).toBeGreaterThanOrEqual(d.vsize - 1);

    const sent = await refundStatus(r.refund_id, 'sent');
    expect(sent.txid).toBe(txid);
    await node.mine(CONFIRMATIONS);
    expect((await refundStatus(r.refund_id, 'confirmed')).txid).toBe(txid);
    expect(await paidTo(txid, customer)).toBe(20_000_000n);
    expect(await paidTo(txid, d.change_address)).toBe(BigInt(d.change_units));
    // The deposit output is spent now, and the change is no deposit of the payment.
    expect(await node.rpc.call('gettxout', [p.txid, vout, true])).toBeNull();
    const deposits = await t.service.deps.db
      .selectFrom('deposits')
      .select('txid')
      .where('payment_id', '=', p.id)
      .execute();
    expect(deposits.map((x) => x.txid)).toEqual([p.txid]);
    const payment = (await t.api(`/api/v1/payments/${p.id}`)).json.data;
    expect(payment.payment_status).toBe('finished');

    // (c) The rest of the payment refunded from the same, now spent, output: refused, naming why.
    const rest = await refund(p.id, 10_000_000n, customer);
    const refused = await t.api(`/api/v1/refunds/${rest.refund_id}/psbt`);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.json.message).toMatch(/already spent/);
    expect(refused.json.message).toContain(`${p.txid}:${vout}`);
  });

  it('refuses a PSBT with a bad fingerprint and for a refund not ready; the CLI prints the same', async () => {
    const p = await paidPayment();
    const customer = await node.newAddress();
    const all = await refund(p.id, 30_000_000n, customer);
    const bad = await t.api(`/api/v1/refunds/${all.refund_id}/psbt?master_fingerprint=xyz`);
    expect(bad.status, bad.text).toBe(422);
    expect(Object.keys(bad.json.errors)).toEqual(['master_fingerprint']);
    const cancelled = await t.api(`/api/v1/refunds/${all.refund_id}/cancel`, { method: 'POST' });
    expect(cancelled.status, cancelled.text).toBe(200);
    const none = await t.api(`/api/v1/refunds/${all.refund_id}/psbt`);
    expect(none.status, none.text).toBe(409);
    expect(none.json.message).toMatch(/The refund is cancelled/);
    // Without a master fingerprint, the key origin is the account key itself, and the PSBT is still there.
    const half = await refund(p.id, 15_000_000n, customer);
    const account = await t.api(`/api/v1/refunds/${half.refund_id}/psbt`);
    expect(account.status, account.text).toBe(200);
    expect(account.json.data.key_origin).toBe('account');
    expect(account.json.data.inputs[0].path).toBe(`0/${p.index}`);
    const decoded = await node.rpc.call<{ inputs: { bip32_derivs?: { master_fingerprint: string }[] }[] }>(
      'decodepsbt',
      [account.json.data.psbt],
    );
    const own = master.derive(ACCOUNT).fingerprint.toString(16).padStart(8, '0');
    expect(decoded.inputs[0]?.bip32_derivs?.[0]?.master_fingerprint).toBe(own);

    // The dashboard's refund panel asks its own API (owners only): the same answer.
    const owner = await userOf(t, t.merchant.merchant_id, 'owner@shop.example');
    const dash = await owner.call(`/merchants/${t.merchant.merchant_id}/refunds/${half.refund_id}/psbt`);
    expect(dash.status, dash.text).toBe(200);
    expect(dash.json.data).toEqual(account.json.data);
    const viewer = await userOf(t, t.merchant.merchant_id, 'viewer@shop.example', 'viewer');
    const refusedViewer = await viewer.call(`/merchants/${t.merchant.merchant_id}/refunds/${half.refund_id}/psbt`);
    expect(refusedViewer.status, refusedViewer.text).toBe(403);

    // The admin CLI, in its own process on the same store and CHAINS_CONFIG, gives the same PSBT.
    const cli = await run(
      'npx',
      ['tsx', 'server/admin-cli.ts', 'refund', 'psbt', '--refund', half.refund_id, '--json'],
      {
        env: { ...process.env, DATABASE_URL: t.service.config.DATABASE_URL, CHAINS_CONFIG: configFile },
      },
    );
    expect(JSON.parse(cli.stdout)).toEqual(account.json.data);
    const refusedCli = await run('npx', ['tsx', 'server/admin-cli.ts', 'refund', 'psbt', '--refund', all.refund_id], {
      env: { ...process.env, DATABASE_URL: t.service.config.DATABASE_URL, CHAINS_CONFIG: configFile },
    }).catch((e: { code: number; stderr: string }) => e);
    expect('code' in refusedCli && refusedCli.code).toBe(2);
    expect('stderr' in refusedCli && refusedCli.stderr).toContain('The refund is cancelled');
  }, 120_000);

  it('a Dogecoin (P2PKH) refund PSBT carries the previous transaction only, signs, pays exactly and is confirmed', async () => {
    const p = await paidPayment('DOGE');
    expect(p.address).toMatch(/^[mn]/);
    const customer = await node.newAddress('legacy');
    const r = await refund(p.id, 100_000_000n, customer);
    const got = await t.api(`/api/v1/refunds/${r.refund_id}/psbt?master_fingerprint=${fingerprint}`);
    expect(got.status, got.text).toBe(200);
    const d = got.json.data;
    expect(d.inputs[0].path).toBe(`44'/1'/0'/0/${p.index}`);
    expect(d.change_address).toBe(await derived(`pkh(${master.derive(DOGE_ACCOUNT).publicExtendedKey}/1/*)`, p.index));
    // Dogecoin Core's floor (0.01 DOGE/kB) when the node cannot estimate: 1000 koinu per byte.
    expect(d.fee_rate_units_per_vbyte).toBe('1000');
    expect(BigInt(d.fee_units)).toBe(1000n * BigInt(d.vsize));
    const decoded = await node.rpc.call<{ inputs: { witness_utxo?: unknown; non_witness_utxo?: { txid: string } }[] }>(
      'decodepsbt',
      [d.psbt],
    );
    expect(decoded.inputs[0]?.witness_utxo).toBeUndefined();
    expect(decoded.inputs[0]?.non_witness_utxo?.txid).toBe(p.txid);
    const { txid, hex } = await signAndBroadcast('pkh', "44'/1'/0'", p.index, d.psbt);
    const signed = await node.rpc.call<{ size: number }>('decoderawtransaction', [hex]);
    expect(signed.size).toBeLessThanOrEqual(d.vsize);
    expect((await refundStatus(r.refund_id, 'sent')).txid).toBe(txid);
    await node.mine(CONFIRMATIONS);
    expect((await refundStatus(r.refund_id, 'confirmed')).txid).toBe(txid);
    expect(await paidTo(txid, customer)).toBe(100_000_000n);
  });

  it("a refund of all a payment received takes its fee from another unspent deposit at the merchant's key, and pays exactly", async () => {
    const p = await paidPayment();
    const other = await paidPayment();
    const customer = await node.newAddress();
    const all = await refund(p.id, 30_000_000n, customer);
    const got = await t.api(`/api/v1/refunds/${all.refund_id}/psbt?master_fingerprint=${fingerprint}`);
    expect(got.status, got.text).toBe(200);
    const d = got.json.data;
    // The payment's own output first, then the largest other deposit (all of 0.3 LTC here), at their own paths.
    expect(d.inputs[0]).toMatchObject({ txid: p.txid, address: p.address, path: `84'/1'/0'/0/${p.index}` });
    expect(d.inputs).toHaveLength(2);
    expect(d.inputs[1].address).not.toBe(p.address);
    expect(d.inputs[1].amount_units).toBe('30000000');
    expect(BigInt(d.fee_units) + BigInt(d.change_units) + 30_000_000n).toBe(60_000_000n);
    const { txid } = await signAndBroadcast('wpkh', "84'/1'/0'", other.index, d.psbt);
    await node.mine(CONFIRMATIONS);
    expect((await refundStatus(all.refund_id, 'confirmed')).txid).toBe(txid);
    expect(await paidTo(txid, customer)).toBe(30_000_000n);
    expect((await t.api(`/api/v1/payments/${p.id}`)).json.data.payment_status).toBe('refunded');
  });
});
