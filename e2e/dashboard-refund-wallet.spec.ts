import type { Page } from '@playwright/test';
import { type Address, erc20Abi, getAddress, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ANVIL_CHAIN_ID, ANVIL_FUNDED } from '../core/chains/evm/testing/anvil.js';
import { setPayout } from '../core/forwarders/payouts.js';
import { addUser } from '../core/users/accounts.js';
import { expectAccessible, OWNER, PASSWORD, signIn } from './dashboard-fixtures.js';
import { test as base, expect, shot } from './fixtures.js';
import { CONFIRMATIONS, type LiveWorld, startLiveWorld } from './live-world.js';
import { injectTestWallet, walletCalls } from './test-wallet.js';

/**
 * A live world with a ForwarderFactory on anvil (no relayer) and an owner who signs in. Its ETH payment is made
 * before the merchant has a payout address (so it pays an address of the merchant's xpub), its USDT payment after
 * (so it pays a forwarder): both kinds of EVM deposit address are refunded.
 */
interface RefundWorld extends LiveWorld {
  eth: Paid;
  usdt6: Paid;
}
interface Paid {
  id: string;
  units: bigint;
}

async function createPayment(w: LiveWorld, currency: string, amount: number) {
  for (let i = 0; ; i++) {
    const r = await w.service.api('/api/v1/payments', {
      body: { amount, currency, email: 'refund@buyer.example', order_id: `refund-${currency}-${i}` },
    });
    if (r.status === 201) return r.json.data;
    if (i > 100) throw new Error(`no ${currency} payment: ${r.status} ${r.text}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

async function finished(w: LiveWorld, id: string) {
  await w.anvil.test.mine({ blocks: CONFIRMATIONS });
  for (let i = 0; (await w.service.api(`/api/v1/payments/${id}`)).json.data.payment_status !== 'finished'; i++) {
    if (i > 200) throw new Error(`payment ${id} never finished`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const test = base.extend<object, { rw: RefundWorld }>({
  rw: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring
    async ({}, use) => {
      const w = await startLiveWorld({ forwarders: true });
      const deps = w.service.service.deps;
      const merchantId = w.service.merchant.merchant_id;
      await addUser(deps, { merchantId, email: OWNER, role: 'owner', password: PASSWORD });
      const e = await createPayment(w, 'eth', 30);
      const ethUnits = parseUnits(String(e.blockchain.pay_amount), 18);
      await w.anvil.wallet.sendTransaction({
        to: getAddress(e.blockchain.pay_address),
        value: ethUnits,
        account: ANVIL_FUNDED,
        chain: null,
      });
      await finished(w, e.payment.payment_id);
      const payout = privateKeyToAccount(generatePrivateKey()).address;
      if (!(await setPayout(deps.db, deps.clock, merchantId, 'evm', payout)).ok) throw new Error('payout refused');
      const u = await createPayment(w, 'usdterc20', 12.5);
      const usdtUnits = parseUnits(String(u.blockchain.pay_amount), 6);
      await w.anvil.wallet.writeContract({
        address: w.usdt,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [getAddress(u.blockchain.pay_address), usdtUnits],
        account: ANVIL_FUNDED,
        chain: null,
      });
      await finished(w, u.payment.payment_id);
      await use({
        ...w,
        eth: { id: e.payment.payment_id, units: ethUnits },
        usdt6: { id: u.payment.payment_id, units: usdtUnits },
      });
      await w.close();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
});

const fresh = (): Address => privateKeyToAccount(generatePrivateKey()).address;

/** Creates a refund in the dashboard's form (amount empty: all that is left) and returns its row. */
async function createRefund(page: Page, customer: Address, amount: string) {
  const form = page.getByRole('form', { name: 'Refund this payment' });
  if (amount) await form.getByLabel(/^Amount in/).fill(amount);
  await form.getByLabel('Customer’s address').fill(customer);
  await form.getByRole('button', { name: 'Create refund' }).click();
  await expect(page.getByText('Refund created: send it from your wallet to the address')).toBeVisible();
}

/** The last eth_sendTransaction the test wallet got. */
async function lastSend(page: Page) {
  const sends = (await walletCalls(page)).filter((c) => c.method === 'eth_sendTransaction');
  return {
    count: sends.length,
    tx: sends.at(-1)?.params?.[0] as { from: string; to: string; value: string; data?: string },
  };
}

/** Clicks the refund's wallet button, mines it and its confirmations, and waits for the watcher's `confirmed`. */
async function sendAndConfirm(page: Page, w: RefundWorld, refundId: string, label: string) {
  const panel = page.locator(`[data-refund-send="${refundId}"]`);
  await panel.getByRole('button', { name: `Send ${label} from your wallet` }).click();
  await expect(panel.getByText(/^Sent in 0x[0-9a-f]{64}/)).toBeVisible();
  const hash = ((await panel.locator('.mono').last().textContent()) ?? '') as `0x${string}`;
  await w.anvil.test.mine({ blocks: 1 });
  const row = page.locator(`tr[data-refund="${refundId}"]`);
  // The page asks again by itself: no reload.
  await expect(row.locator('[data-refund-status]')).toHaveText(/^sent \(seen on chain\)/, { timeout: 20_000 });
  await expect(row).toContainText(hash);
  await w.anvil.test.mine({ blocks: CONFIRMATIONS });
  await expect(row.locator('[data-refund-status]')).toHaveText(/^confirmed/, { timeout: 20_000 });
  expect((await w.anvil.public.getTransactionReceipt({ hash })).status).toBe('success');
  return hash;
}

test.describe('dashboard refunds sent from the owner’s browser wallet (live EVM on a real anvil)', () => {
  // Two or three transfers, each seen and confirmed by the watcher on anvil: more than the default minute under load.
  test.describe.configure({ timeout: 180_000 });
  test('a USDT forwarder payment refunded in part then the rest, one click each; the customer gets exactly the refunds', async ({
    page,
    rw,
  }, testInfo) => {
    const customer = fresh();
    const balance = () =>
      rw.anvil.public.readContract({
        address: rw.usdt,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [customer],
      });
    await injectTestWallet(page, rw.anvil, { wallets: [{ name: 'Test Wallet', uuid: 'refund-1' }] });
    const merchantId = rw.service.merchant.merchant_id;
    await page.goto(`${rw.service.url}/dashboard/m/${merchantId}/payments/${rw.usdt6.id}`);
    await signIn(page);
    await expect(page.locator('.headline [data-status]').first()).toHaveText(/finished/);

    // A partial refund: 5 USDT, exactly 5_000_000 units.
    await createRefund(page, customer, '5');
    const rows = page.locator('tr[data-refund]');
    await expect(rows).toHaveCount(1);
    const first = (await rows.first().getAttribute('data-refund')) ?? '';
    await expect(rows.first().locator('[data-refund-status]')).toHaveText('ready to send');
    const panel = page.locator(`[data-refund-send="${first}"]`);
    const uri = `ethereum:${rw.usdt}@${ANVIL_CHAIN_ID}/transfer?address=${customer}&uint256=5000000`;
    await expect(panel.locator('[data-field="refund-uri"]')).toHaveText(uri);
    await expect(panel.locator('[data-field="refund-qr"]')).toHaveAttribute('src', /^data:image\/svg\+xml,/);
    await expectAccessible(page, 'a ready refund with its send panel');
    await shot(page, testInfo, 'dash-refund-wallet-ready');
    await sendAndConfirm(page, rw, first, '5 USDT (Ethereum)');
    const one = await lastSend(page);
    expect(one.count).toBe(1);
    // Exactly transfer(customer, 5_000_000) to the token contract, no value, from the wallet's account.
    expect(getAddress(one.tx.to)).toBe(rw.usdt);
    expect(one.tx.from.toLowerCase()).toBe(ANVIL_FUNDED.toLowerCase());
    expect(BigInt(one.tx.value)).toBe(0n);
    expect(one.tx.data).toBe(
      `0xa9059cbb${customer.slice(2).toLowerCase().padStart(64, '0')}${5_000_000n.toString(16).padStart(64, '0')}`,
    );
    expect(await balance()).toBe(5_000_000n);
    await expect(page.locator('.headline [data-status]').first()).toHaveText(/finished/);

    // The rest (amount left empty): the payment is refunded once it is confirmed.
    const rest = rw.usdt6.units - 5_000_000n;
    await createRefund(page, customer, '');
    await expect(rows).toHaveCount(2);
    const second = (await rows.nth(1).getAttribute('data-refund')) ?? '';
    const restText = `${rest / 1_000_000n}.${(rest % 1_000_000n).toString().padStart(6, '0')}`.replace(/\.?0+$/, '');
    await sendAndConfirm(page, rw, second, `${restText} USDT (Ethereum)`);
    expect((await lastSend(page)).count).toBe(2);
    expect(await balance()).toBe(rw.usdt6.units);
    await expect(page.locator('.headline [data-status]').first()).toHaveText(/refunded/, { timeout: 20_000 });
    expect((await rw.service.api(`/api/v1/payments/${rw.usdt6.id}`)).json.data.payment_status).toBe('refunded');
    const api = (await rw.service.api(`/api/v1/refunds/${second}`)).json.data;
    expect(api.refund_status).toBe('confirmed');
    expect(api.amount_units).toBe(rest.toString());
    await expectAccessible(page, 'refunds confirmed');
    await shot(page, testInfo, 'dash-refund-wallet-confirmed');
  });

  test('an ETH payment to an xpub address refunded in one click: the customer’s balance rises by exactly the refund', async ({
    page,
    rw,
  }) => {
    const customer = fresh();
    await injectTestWallet(page, rw.anvil, { wallets: [{ name: 'Test Wallet', uuid: 'refund-2' }] });
    const merchantId = rw.service.merchant.merchant_id;
    await page.goto(`${rw.service.url}/dashboard/m/${merchantId}/payments/${rw.eth.id}`);
    await signIn(page);
    await expect(page.locator('.headline [data-status]').first()).toHaveText(/finished/);
    const before = await rw.anvil.public.getBalance({ address: customer });
    await createRefund(page, customer, '');
    const rows = page.locator('tr[data-refund]');
    await expect(rows).toHaveCount(1);
    const id = (await rows.first().getAttribute('data-refund')) ?? '';
    const ethText = (rw.eth.units * 1000n) / 10n ** 18n; // sanity: the test's 30 USD at 3000 USD/ETH
    expect(ethText).toBe(10n);
    await sendAndConfirm(page, rw, id, '0.01 ETH');
    const sent = await lastSend(page);
    expect(getAddress(sent.tx.to)).toBe(customer);
    expect(BigInt(sent.tx.value)).toBe(rw.eth.units);
    expect(sent.tx.data).toBeUndefined();
    expect((await rw.anvil.public.getBalance({ address: customer })) - before).toBe(rw.eth.units);
    await expect(page.locator('.headline [data-status]').first()).toHaveText(/refunded/, { timeout: 20_000 });
    const api = (await rw.service.api(`/api/v1/refunds/${id}`)).json.data;
    expect(api.amount_units).toBe(rw.eth.units.toString());
    expect(api.refund_status).toBe('confirmed');
  });
});
