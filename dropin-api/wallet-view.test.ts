import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HDKey } from '@scure/bip32';
import { type Address, encodeFunctionData, erc20Abi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setXpub } from '../core/addresses/xpubs.js';
import { type Litecoind, startLitecoind } from '../core/chains/bitcoin/testing/litecoind.js';
import {
  ANVIL_CHAIN_ID,
  ANVIL_FUNDED,
  type Anvil,
  compileTestToken,
  deployTestToken,
  minedReceipt,
  startAnvil,
} from '../core/chains/evm/testing/anvil.js';
import { startRatesServer } from '../core/chains/evm/testing/rates-server.js';
import { startTestService, type TestService } from '../server/testing/harness.js';

/*
 * The drop-in view's `wallet`: the transaction a browser wallet sends, on a live merchant over a real anvil. It must
 * be the payment_uri's transfer (the remaining amount once partly paid), name the public walletRpcUrl for
 * wallet_addEthereumChain and never the node's rpcUrl, which carries a key. The same merchant also takes LTC live
 * on a real litecoind -regtest: a non-EVM payment, which no browser wallet is offered.
 */

const RPC_KEY = `k${randomBytes(8).toString('hex')}`;
let anvil: Anvil;
let litecoind: Litecoind;
let usdt: Address;
let rates: { url: string; close(): Promise<void> };
let t: TestService;
let configFile: string;

beforeAll(async () => {
  anvil = await startAnvil();
  litecoind = await startLitecoind();
  const token = compileTestToken();
  usdt = await deployTestToken(anvil, token, 'USDT');
  const usdc = await deployTestToken(anvil, token, 'USDC');
  rates = await startRatesServer({ ethereum: 3000, tether: 1, 'usd-coin': 1, litecoin: 100 });
  configFile = join(tmpdir(), `wallet-view-${randomBytes(4).toString('hex')}.json`);
  writeFileSync(
    configFile,
    JSON.stringify({
      networks: {
        eth: {
          rpcUrl: `${anvil.url}/?apikey=${RPC_KEY}`,
          chainId: ANVIL_CHAIN_ID,
          confirmations: 1,
          pollIntervalMs: 100,
          explorerUrl: 'https://explorer.example/',
          walletRpcUrl: 'https://rpc.example/public',
          tokens: { USDTERC20: usdt, USDCERC20: usdc },
        },
        ltc: { rpcUrl: litecoind.url, cookieFile: litecoind.cookieFile, chain: 'regtest', pollIntervalMs: 100 },
      },
    }),
  );
  t = await startTestService({
    mode: 'live',
    start: true,
    env: { CHAINS_CONFIG: configFile, RATES_BASE_URL: rates.url },
  });
  const xpub = HDKey.fromMasterSeed(randomBytes(32)).derive("m/44'/60'/0'").publicExtendedKey;
  expect((await setXpub(t.service.deps.db, t.service.deps.clock, t.merchant.merchant_id, 'evm', xpub)).ok).toBe(true);
  // tpub version bytes: a regtest account key, as the merchant's Litecoin wallet would export it.
  const ltcAccount = HDKey.fromMasterSeed(randomBytes(32), { private: 0x04358394, public: 0x043587cf }).derive(
    "m/84'/1'/0'",
  ).publicExtendedKey;
  const ltc = await setXpub(
    t.service.deps.db,
    t.service.deps.clock,
    t.merchant.merchant_id,
    'ltc',
    ltcAccount,
    'regtest',
  );
  expect(ltc.ok, JSON.stringify(ltc)).toBe(true);
  const listed = async () => {
    const text = (await t.api('/api/v1/currencies')).text;
    return text.includes('USDTERC20') && text.includes('"LTC"');
  };
  for (let i = 0; i < 200 && !(await listed()); i++) await new Promise((r) => setTimeout(r, 100));
}, 60_000);

afterAll(async () => {
  await t?.close();
  await rates?.close();
  await anvil?.stop();
  await litecoind?.stop();
  rmSync(configFile, { force: true });
});

/** A direct payment, and how its hosted page reads it (the drop-in view). */
async function pay(currency: string, amount: number) {
  const r = await t.api('/api/v1/payments', { body: { amount, currency, email: 'ann@example.com' } });
  expect(r.status, r.text).toBe(201);
  const url = new URL(r.json.data.payment.hosted_payment_url);
  const token = `pt_${r.json.data.payment.payment_id}.${url.searchParams.get('t')}`;
  return {
    id: r.json.data.payment.payment_id as string,
    address: r.json.data.blockchain.pay_address as Address,
    async view() {
      const v = await t.api(`/api/dropin/v1/sessions/${token}`, { key: null });
      expect(v.status, v.text).toBe(200);
      expect(v.text).not.toContain(RPC_KEY);
      return v.json.data.payment as { wallet: unknown; qr: { payment_uri: string }; payment_status: string };
    },
  };
}

async function until(id: string, status: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await t.api(`/api/v1/payments/${id}`)).json.data.payment_status === status) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${id} never reached ${status}`);
}

describe('the drop-in view of a live EVM payment offers its wallet transaction', () => {
  it('ETH: the payment_uri value to the payment address, with the public walletRpcUrl to add the chain', async () => {
    const p = await pay('eth', 30);
    const v = await p.view();
    const wei = /\?value=(\d+)$/.exec(v.qr.payment_uri)?.[1] ?? '';
    expect(v.wallet).toEqual({
      chain_id: '0x7a69',
      to: p.address,
      value: `0x${BigInt(wei).toString(16)}`,
      data: null,
      explorer_url: 'https://explorer.example',
      add_chain: {
        chainId: '0x7a69',
        chainName: 'Ethereum',
        nativeCurrency: { name: 'Ethereum', symbol: 'ETH', decimals: 18 },
        rpcUrls: ['https://rpc.example/public'],
        blockExplorerUrls: ['https://explorer.example'],
      },
    });
  });

  it('USDT partly paid: the transfer asks for what is left, as the payment_uri does; finished offers nothing', async () => {
    const p = await pay('usdterc20', 30);
    const transfer = (units: bigint) =>
      encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [p.address, units] });
    let v = await p.view();
    expect(v.wallet).toMatchObject({ to: usdt, value: '0x0', data: transfer(30_000_000n) });

    const send = async (units: bigint) => {
      const hash = await anvil.wallet.writeContract({
        address: usdt,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [p.address, units],
        account: ANVIL_FUNDED,
        chain: null,
      });
      await minedReceipt(anvil, hash);
    };
    await send(12_000_000n);
    await until(p.id, 'partially_paid');
    v = await p.view();
    expect(v.qr.payment_uri).toBe(`ethereum:${usdt}@${ANVIL_CHAIN_ID}/transfer?address=${p.address}&uint256=18000000`);
    expect(v.wallet).toMatchObject({ to: usdt, value: '0x0', data: transfer(18_000_000n) });

    await send(18_000_000n);
    await until(p.id, 'finished');
    expect((await p.view()).wallet).toBeNull();
  });
});

describe('a live payment on a network that is not EVM', () => {
  it('LTC on litecoind: a live payment with its litecoin: payment_uri, and no wallet transaction', async () => {
    const p = await pay('ltc', 30);
    const v = await p.view();
    expect(v.payment_status).toBe('waiting');
    expect(v.qr.payment_uri).toMatch(new RegExp(`^litecoin:${p.address}\\?amount=\\d+(\\.\\d+)?$`));
    expect(v.wallet).toBeNull();
  });
});
