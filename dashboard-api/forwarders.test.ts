import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeFunctionData, getAddress, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forwarderFactoryAbi } from '../contracts/build/forwarders.js';
import { forwarderAddress, forwarderSalt } from '../core/chains/evm/forwarders/address.js';
import {
  ANVIL_CHAIN_ID,
  ANVIL_FUNDED,
  ANVIL_FUNDED_2,
  ANVIL_FUNDED_3,
  type Anvil,
  deployForwarderFactory,
  startAnvil,
} from '../core/chains/evm/testing/anvil.js';
import { startRatesServer } from '../core/chains/evm/testing/rates-server.js';
import { createMerchant } from '../core/merchants/merchants.js';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { type DashClient, userOf } from './testing/client.js';

/*
 * The payout address and forwarder sweeps in the dashboard API, on the real app and store (SQLite, or PostgreSQL
 * with TEST_DATABASE_URL) and a real anvil with a deployed ForwarderFactory (no relayer).
 */

let anvil: Anvil;
let factory: `0x${string}`;
let t: TestService;
let chainsFile: string;
let owner: DashClient;
let viewer: DashClient;
let stranger: DashClient;
let liveId: string;
let liveKey: string;
let rates: { url: string; close(): Promise<void> };
let base: string;

const PAYOUT = ANVIL_FUNDED_2;

beforeAll(async () => {
  anvil = await startAnvil();
  factory = await deployForwarderFactory(anvil);
  chainsFile = join(tmpdir(), `chains-dash-fwd-${process.pid}.json`);
  writeFileSync(
    chainsFile,
    JSON.stringify({
      networks: {
        eth: {
          rpcUrl: anvil.url,
          chainId: ANVIL_CHAIN_ID,
          confirmations: 2,
          pollIntervalMs: 100,
          forwarderFactory: factory,
          sweepIntervalMs: 100,
          tokens: {
            USDTERC20: '0x0000000000000000000000000000000000000001',
            USDCERC20: '0x0000000000000000000000000000000000000002',
          },
        },
      },
    }),
  );
  rates = await startRatesServer({ ethereum: 3000, tether: 1, 'usd-coin': 1 });
  t = await startTestService({
    start: true,
    env: { CHAINS_CONFIG: chainsFile, RATES_BASE_URL: rates.url, LOG_LEVEL: 'silent' },
  });
  const { db, clock } = t.service.deps;
  const live = await createMerchant(db, clock, { name: 'Live shop', mode: 'live' });
  liveId = live.merchant_id;
  liveKey = live.secret_key;
  const other = await createMerchant(db, clock, { name: 'Other shop', mode: 'live' });
  owner = await userOf(t, liveId, 'owner@shop.example');
  viewer = await userOf(t, liveId, 'viewer@shop.example', 'viewer');
  stranger = await userOf(t, other.merchant_id, 'stranger@other.example');
  base = `/merchants/${liveId}`;
}, 60_000);

afterAll(async () => {
  await t?.close();
  await anvil?.stop();
  await rates?.close();
  rmSync(chainsFile, { force: true });
});

const storedPayout = async (merchantId: string) =>
  (
    await t.service.deps.db
      .selectFrom('merchant_payouts')
      .select('address')
      .where('merchant_id', '=', merchantId)
      .executeTakeFirst()
  )?.address ?? null;

describe('payout address: happy paths', () => {
  it('is empty at first, then set by an owner (lower-case input saved checksummed) and shown in the settings', async () => {
    const before = (await owner.call(`${base}/settings`)).json.data;
    expect(before.payout).toBeNull();
    expect(before.forwarder_networks).toEqual(['eth']);
    const r = await owner.call(`${base}/payout`, { method: 'PUT', body: { address: PAYOUT.toLowerCase() } });
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual({ chain: 'evm', address: PAYOUT, contract_on: [], warnings: [] });
    expect((await owner.call(`${base}/settings`)).json.data.payout).toEqual({ chain: 'evm', address: PAYOUT });
    expect((await viewer.call(`${base}/settings`)).json.data.payout).toEqual({ chain: 'evm', address: PAYOUT });
    expect(await storedPayout(liveId)).toBe(PAYOUT);
  });

  it('takes a contract address (a Safe is a fine payout) with a warning naming the networks where it has code', async () => {
    const r = await owner.call(`${base}/payout`, { method: 'PUT', body: { address: factory } });
    expect(r.status).toBe(200);
    expect(r.json.data.contract_on).toEqual(['eth']);
    expect(r.json.data.warnings[0]).toContain('is a contract on eth');
    expect(await storedPayout(liveId)).toBe(factory);
    await owner.call(`${base}/payout`, { method: 'PUT', body: { address: PAYOUT } });
    expect(await storedPayout(liveId)).toBe(PAYOUT);
  });

  it('lists the sweeper of each factory network: no relayer, nothing unswept yet; the rpcUrl never shows', async () => {
    const r = await viewer.call(`${base}/forwarders`);
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject([
      { network: 'eth', chain_id: ANVIL_CHAIN_ID, factory, relayer: null, payouts: [], forwarders: [] },
    ]);
    expect(r.text).not.toContain(anvil.url);
    expect(r.text).not.toContain(`:${anvil.port}`);
  });
});

describe('payout address: bad input', () => {
  const cases: [string, string, RegExp][] = [
    ['not an address', 'hello', /20-byte hex address/],
    ['too short', '0x1234', /20-byte hex address/],
    ['a bad EIP-55 checksum', '0x70997970c51812dc3A010C7d01b50e0d17dc79C8', /checksum/],
    ['the zero address', '0x0000000000000000000000000000000000000000', /zero address/],
  ];
  it.each(cases)('refuses %s with the 422 envelope per field and writes nothing', async (_what, address, message) => {
    const r = await owner.call(`${base}/payout`, { method: 'PUT', body: { address } });
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
    expect(r.json.errors.address[0]).toMatch(message);
    expect(await storedPayout(liveId)).toBe(PAYOUT);
  });

  it('refuses a body without an address, and one that is not JSON', async () => {
    const r = await owner.call(`${base}/payout`, { method: 'PUT', body: {} });
    expect(r.status).toBe(422);
    expect(r.json.errors.address).toBeDefined();
    const s = await owner.call(`${base}/payout`, { method: 'PUT', body: '{"address":', headers: {} });
    expect(s.status).toBe(400);
    expect(await storedPayout(liveId)).toBe(PAYOUT);
  });

  it('refuses a test-mode merchant: it is paid on the sandbox chain', async () => {
    const testOwner = await userOf(t, t.merchant.merchant_id, 'test-owner@shop.example');
    const r = await testOwner.call(`/merchants/${t.merchant.merchant_id}/payout`, {
      method: 'PUT',
      body: { address: PAYOUT },
    });
    expect(r.status).toBe(400);
    expect(r.json.message).toMatch(/Only live merchants/);
    expect(await storedPayout(t.merchant.merchant_id)).toBeNull();
  });

  it('answers a wallet sweep with nothing to sweep as a conflict, and an unknown network per field', async () => {
    const none = await owner.call(`${base}/forwarders/sweep-transaction`, { body: { network: 'eth' } });
    expect(none.status).toBe(409);
    expect(none.json.message).toMatch(/Nothing to sweep/);
    const bad = await owner.call(`${base}/forwarders/sweep-transaction`, { body: { network: 'bsc' } });
    expect(bad.status).toBe(422);
    expect(bad.json.errors.network).toBeDefined();
  });
});

describe('payout address: who may', () => {
  it('refuses a viewer (403) and writes nothing', async () => {
    const r = await viewer.call(`${base}/payout`, { method: 'PUT', body: { address: ANVIL_FUNDED } });
    expect(r.status).toBe(403);
    expect(await storedPayout(liveId)).toBe(PAYOUT);
    const s = await viewer.call(`${base}/forwarders/sweep-transaction`, { body: { network: 'eth' } });
    expect(s.status).toBe(403);
  });

  it('answers another merchant’s owner with 404, reading or writing', async () => {
    expect((await stranger.call(`${base}/settings`)).status).toBe(404);
    expect((await stranger.call(`${base}/forwarders`)).status).toBe(404);
    const r = await stranger.call(`${base}/payout`, { method: 'PUT', body: { address: ANVIL_FUNDED } });
    expect(r.status).toBe(404);
    expect(await storedPayout(liveId)).toBe(PAYOUT);
  });

  it('refuses a change without the CSRF token', async () => {
    const r = await owner.call(`${base}/payout`, { method: 'PUT', body: { address: ANVIL_FUNDED }, csrf: null });
    expect(r.status).toBe(403);
    expect(await storedPayout(liveId)).toBe(PAYOUT);
  });
});

describe('forwarders: a paid forwarder, listed, swept by a wallet with the transaction the service built', () => {
  it('lists the finished payment’s forwarder with its exact amount, builds one flushMany, and shows it swept once mined', async () => {
    let p: { payment_id: string; pay_address: string; pay_amount: number } | undefined;
    for (let i = 0; !p; i++) {
      const r = await t.api('/api/v1/payments', {
        key: liveKey,
        body: { amount: 30, currency: 'eth', email: 'f@buyer.example', order_id: `fwd-${i}` },
      });
      if (r.status === 201) p = { payment_id: r.json.data.payment.payment_id, ...r.json.data.blockchain };
      else if (i > 100) throw new Error(`no forwarder payment: ${r.status} ${r.text}`);
      else await new Promise((res) => setTimeout(res, 100));
    }
    const id = p.payment_id;
    const forwarder = forwarderAddress(factory, PAYOUT, forwarderSalt(id));
    expect(getAddress(p.pay_address)).toBe(forwarder);
    const wei = parseEther(String(p.pay_amount));
    const before = await anvil.public.getBalance({ address: PAYOUT });
    await anvil.wallet.sendTransaction({ to: forwarder, value: wei, account: ANVIL_FUNDED_3, chain: null });
    await anvil.test.mine({ blocks: 2 });
    for (
      let i = 0;
      (await t.api(`/api/v1/payments/${id}`, { key: liveKey })).json.data.payment_status !== 'finished';
      i++
    ) {
      if (i > 200) throw new Error('the payment did not finish');
      await new Promise((res) => setTimeout(res, 100));
    }

    const listed = (await viewer.call(`${base}/forwarders`)).json.data[0];
    expect(listed.payouts).toEqual([PAYOUT]);
    expect(listed.forwarders).toEqual([
      {
        payment_id: id,
        address: forwarder,
        payout: PAYOUT,
        amounts: [{ currency: 'ETH', amount: String(p.pay_amount) }],
        relayer_sweep_pending: false,
        sweep_error: null,
        next_sweep_at: null,
      },
    ]);
    const page = (await viewer.call(`${base}/payments/${id}`)).json.data.forwarder;
    expect(page).toMatchObject({
      address: forwarder,
      payout: PAYOUT,
      swept: false,
      has_deposits: true,
      sweep_tx: null,
    });

    const built = await owner.call(`${base}/forwarders/sweep-transaction`, { body: { network: 'eth' } });
    expect(built.status).toBe(200);
    expect(built.json.data).toMatchObject({
      network: 'eth',
      chain_id: `0x${ANVIL_CHAIN_ID.toString(16)}`,
      to: factory,
      forwarders: [id],
      payouts: [PAYOUT],
    });
    const call = decodeFunctionData({ abi: forwarderFactoryAbi, data: built.json.data.data });
    expect(call.functionName).toBe('flushMany');
    expect(call.args).toEqual([[{ payout: PAYOUT, salt: forwarderSalt(id), tokens: [] }]]);
    // Nothing was written: the sweeper learns of the sweep from the chain.
    expect((await viewer.call(`${base}/forwarders`)).json.data[0].forwarders).toHaveLength(1);

    // Any account may send it (it pays only gas); the funds can go only to the payout.
    const hash = await anvil.wallet.sendTransaction({
      to: built.json.data.to,
      data: built.json.data.data,
      account: ANVIL_FUNDED,
      chain: null,
    });
    await anvil.test.mine({ blocks: 1 });
    expect((await anvil.public.getTransactionReceipt({ hash })).status).toBe('success');
    expect((await anvil.public.getBalance({ address: PAYOUT })) - before).toBe(wei);
    for (let i = 0; (await viewer.call(`${base}/forwarders`)).json.data[0].forwarders.length > 0; i++) {
      if (i > 200) throw new Error('the sweeper never saw the flush');
      await new Promise((res) => setTimeout(res, 100));
    }
    const swept = (await viewer.call(`${base}/payments/${id}`)).json.data.forwarder;
    expect(swept).toMatchObject({ swept: true, sweep_tx: hash, sweep_tx_url: null });
    const none = await owner.call(`${base}/forwarders/sweep-transaction`, { body: { network: 'eth' } });
    expect(none.status).toBe(409);
  });

  it('hides a payment’s forwarder from another merchant (404) and lists none for a test merchant', async () => {
    const id = (await t.service.deps.db.selectFrom('evm_forwarders').select('payment_id').executeTakeFirstOrThrow())
      .payment_id;
    expect((await stranger.call(`/merchants/${liveId}/payments/${id}`)).status).toBe(404);
    const testOwner = await userOf(t, t.merchant.merchant_id, 'test-reader@shop.example', 'viewer');
    const r = await testOwner.call(`/merchants/${t.merchant.merchant_id}/forwarders`);
    expect(r.json.data).toMatchObject([{ network: 'eth', forwarders: [] }]);
  });
});
