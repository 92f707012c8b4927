import { type Address, bytesToHex, getAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { createMerchant } from '../../merchants/merchants.js';
import { ANVIL_CHAIN_ID } from './testing/anvil.js';
import {
  CONFIRMATIONS,
  clock,
  codes,
  create,
  depositsOf,
  eventStatuses,
  mine,
  processed,
  sendEth,
  sendToken,
  setUpLiveEvm,
  status,
  stranger,
  t,
  usdc,
  usdt,
  waitStatus,
  wallet,
} from './testing/live-evm.js';

/*
 * Live payments end to end on anvil (set-up in testing/live-evm.ts): which networks are offered, the addresses, and
 * payments paid in full, in parts, over and in the wrong token. evm-live-recovery.test.ts has reorgs, outages,
 * restarts and late payments.
 */

setUpLiveEvm();

/**
 * EIP-681, parsed from the grammar in the EIP and nothing of ours: `ethereum:[pay-]ADDRESS[@CHAIN][/FUNCTION][?PARAMS]`,
 * numbers possibly in scientific notation (`2.014e18`).
 */
function parseEip681(uri: string) {
  const m = /^ethereum:(?:pay-)?(0x[0-9a-fA-F]{40})(?:@([0-9]+))?(?:\/([A-Za-z_$][\w$]*))?(?:\?(.*))?$/.exec(uri);
  if (!m) throw new Error(`not EIP-681: ${uri}`);
  const params = new Map<string, string>();
  for (const part of (m[4] ?? '').split('&').filter(Boolean)) {
    const [k, v = ''] = part.split('=');
    params.set(decodeURIComponent(k ?? ''), decodeURIComponent(v));
  }
  const number = (text: string | undefined): bigint | undefined => {
    if (text === undefined) return undefined;
    const n = /^([0-9]+)(?:\.([0-9]+))?(?:[eE]([0-9]+))?$/.exec(text);
    if (!n) throw new Error(`bad EIP-681 number ${text}`);
    const frac = n[2] ?? '';
    const exp = Number(n[3] ?? 0);
    if (frac.length > exp) throw new Error(`EIP-681 number ${text} is not an integer`);
    return BigInt((n[1] ?? '') + frac) * 10n ** BigInt(exp - frac.length);
  };
  return {
    target: getAddress(m[1] as string),
    chainId: m[2] === undefined ? 1 : Number(m[2]),
    fn: m[3] ?? null,
    value: number(params.get('value')),
    address: params.has('address') ? getAddress(params.get('address') as string) : undefined,
    uint256: number(params.get('uint256')),
  };
}

describe('live EVM networks from CHAINS_CONFIG', () => {
  it('GET /currencies lists the configured, reachable network with its configured token contracts, nothing else', async () => {
    const r = await t.api('/api/v1/currencies');
    expect(r.status).toBe(200);
    const listed = codes(r);
    expect(listed).toEqual(expect.arrayContaining(['ETH', 'USDTERC20', 'USDCERC20']));
    // base is configured but unreachable; BTC and BSC are not configured at all.
    for (const code of ['ETHBASE', 'USDCBASE', 'BTC', 'BNBBSC', 'USDTTRC20']) expect(listed).not.toContain(code);
    const usdtRow = r.json.data.find((c: { code: string }) => c.code === 'USDTERC20');
    expect(usdtRow.smart_contract).toBe(usdt);

    const refused = await t.api('/api/v1/payments', {
      body: { amount: 30, currency: 'ETHBASE', email: 'a@example.com' },
    });
    expect(refused.status).toBe(422);
    expect(refused.json.errors.currency[0]).toMatch(/not configured or not reachable/);
    expect(
      await t.service.deps.db.selectFrom('payments').select('id').where('pay_currency', '=', 'ETHBASE').execute(),
    ).toHaveLength(0);
  });

  it('refuses a live payment when the merchant has no xpub, and writes nothing', async () => {
    const other = await createMerchant(t.service.deps.db, clock, { name: 'No key yet', mode: 'live' });
    const r = await t.api('/api/v1/payments', {
      body: { amount: 30, currency: 'ETH', email: 'a@example.com' },
      key: other.secret_key,
    });
    expect(r.status).toBe(422);
    expect(r.json.errors.currency[0]).toMatch(/extended public key/);
    const keys = await t.service.deps.db
      .selectFrom('merchant_xpubs')
      .select('next_index')
      .where('merchant_id', '=', other.merchant_id)
      .execute();
    expect(keys).toEqual([]);
  });
});

describe('live addresses', () => {
  it('concurrent payments each take their own index N and pay to child 0/N', async () => {
    const made = await Promise.all(Array.from({ length: 12 }, (_, i) => create(i % 2 === 0 ? 'ETH' : 'USDTERC20')));
    const rows = await t.service.deps.db
      .selectFrom('payments')
      .select(['id', 'address_index', 'pay_address'])
      .where(
        'id',
        'in',
        made.map((m) => m.id),
      )
      .execute();
    const indexes = rows.map((r) => Number(r.address_index));
    expect(new Set(indexes).size).toBe(12);
    expect(new Set(rows.map((r) => r.pay_address)).size).toBe(12);
    for (const r of rows) {
      const pk = wallet.derive(`m/44'/60'/0'/0/${r.address_index}`).privateKey as Uint8Array;
      expect(r.pay_address).toBe(privateKeyToAccount(bytesToHex(pk)).address);
    }
    const m = await t.service.deps.db
      .selectFrom('merchant_xpubs')
      .select('next_index')
      .where('merchant_id', '=', t.merchant.merchant_id)
      .where('chain', '=', 'evm')
      .executeTakeFirstOrThrow();
    expect(Number(m.next_index)).toBe(Math.max(...indexes) + 1);
  });
});

describe('live EVM payments on anvil', () => {
  it('paid in full in ETH: address is child 0/N of the xpub, the EIP-681 URI pays it, waiting -> confirming -> finished', async () => {
    const p = await create('ETH');
    const row = await t.service.deps.db
      .selectFrom('payments')
      .select(['address_index'])
      .where('id', '=', p.id)
      .executeTakeFirstOrThrow();
    const index = Number(row.address_index);
    // The wallet's own (private) derivation gives the same address: the merchant sees the payment at 0/N.
    const pk = wallet.derive(`m/44'/60'/0'/0/${index}`).privateKey as Uint8Array;
    expect(p.address).toBe(privateKeyToAccount(bytesToHex(pk)).address);
    const second = await create('ETH');
    expect(second.address).toBe(
      privateKeyToAccount(bytesToHex(wallet.derive(`m/44'/60'/0'/0/${index + 1}`).privateKey as Uint8Array)).address,
    );

    expect(p.units).toBe(10n ** 16n); // $30 at $3,000
    const uri = parseEip681(p.uri);
    expect(uri).toMatchObject({ target: p.address, chainId: ANVIL_CHAIN_ID, fn: null, value: p.units });
    expect(p.data.qr.payload).toBe(`ethereum:${p.address}@${ANVIL_CHAIN_ID}`);

    // Pay exactly what the URI says, as a wallet scanning the QR would.
    await sendEth(uri.target, uri.value as bigint);
    const h = await mine(1);
    let s = await waitStatus(p.id, 'confirming');
    expect(s.paid).toBe('0.01');
    expect(s.confirmed_at).toBeNull();
    await mine(CONFIRMATIONS - 2);
    await processed(h + CONFIRMATIONS - 2);
    expect((await status(p.id)).payment_status).toBe('confirming');
    await mine(1);
    s = await waitStatus(p.id, 'finished');
    expect(s.status_detail).toBe('none');
    expect(s.confirmed_at).not.toBeNull();
    expect(await eventStatuses(p.id)).toEqual(expect.arrayContaining(['confirming', 'finished']));
    const deps = await depositsOf(p.id);
    expect(deps).toHaveLength(1);
    expect(deps[0]).toMatchObject({
      network: 'live:eth',
      asset: 'ETH',
      amount_units: (10n ** 16n).toString(),
      block_height: h,
      removed: 0,
    });
    expect((await status(second.id)).payment_status).toBe('waiting');
  });

  it('paid in USDT (6-decimal ERC-20) in two parts via the token EIP-681 URI: partially_paid, then finished', async () => {
    const p = await create('USDTERC20', 30);
    expect(p.units).toBe(30_000_000n);
    expect(p.data.blockchain.smart_contract).toBe(usdt);
    const uri = parseEip681(p.uri);
    expect(uri).toMatchObject({
      target: usdt,
      chainId: ANVIL_CHAIN_ID,
      fn: 'transfer',
      address: p.address,
      uint256: 30_000_000n,
    });

    await sendToken(uri.target, uri.address as Address, 12_000_000n);
    await mine(CONFIRMATIONS);
    let s = await waitStatus(p.id, 'partially_paid');
    expect(s.status_detail).toBe('underpaid');
    expect(s.paid).toBe('12');

    await sendToken(usdt, p.address, 18_000_000n);
    await mine(1);
    s = await waitStatus(p.id, 'confirming');
    expect(s.paid).toBe('30');
    await mine(CONFIRMATIONS - 1);
    s = await waitStatus(p.id, 'finished');
    expect(s.status_detail).toBe('none');
    expect((await depositsOf(p.id)).map((d) => d.amount_units).sort()).toEqual(['12000000', '18000000']);
  });

  it('overpaid: finished with status_detail overpaid and the exact amount received', async () => {
    const p = await create('ETH');
    await sendEth(p.address, p.units + 1n);
    await mine(CONFIRMATIONS);
    const s = await waitStatus(p.id, 'finished');
    expect(s.status_detail).toBe('overpaid');
    expect(s.paid).toBe('0.010000000000000001');
  });

  it('a wrong token pays nothing: the other configured token is recorded, an unconfigured one is not seen', async () => {
    const p = await create('USDTERC20', 30);
    await sendToken(usdc, p.address, 30_000_000n);
    await sendToken(stranger, p.address, 30_000_000n);
    const h = await mine(CONFIRMATIONS);
    await processed(h);
    let s = await status(p.id);
    expect(s.payment_status).toBe('waiting');
    expect(s.paid).toBe('0');
    const deps = await depositsOf(p.id);
    expect(deps.map((d) => d.asset)).toEqual(['USDCERC20']);

    await sendToken(usdt, p.address, 30_000_000n);
    await mine(CONFIRMATIONS);
    s = await waitStatus(p.id, 'finished');
    expect(s.paid).toBe('30');
  });
});
