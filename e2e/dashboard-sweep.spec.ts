import { type Address, erc20Abi, getAddress, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { forwarderAddress, forwarderSalt } from '../core/chains/evm/forwarders/address.js';
import { ANVIL_FUNDED } from '../core/chains/evm/testing/anvil.js';
import { checksumTypo } from '../core/chains/evm/testing/checksum-typo.js';
import { setPayout } from '../core/forwarders/payouts.js';
import { addUser } from '../core/users/accounts.js';
import { expectAccessible, OWNER, PASSWORD, signIn } from './dashboard-fixtures.js';
import { test as base, expect, shot } from './fixtures.js';
import { CONFIRMATIONS, EXPLORER, type LiveWorld, startLiveWorld } from './live-world.js';
import { injectTestWallet, walletCalls } from './test-wallet.js';

interface SweepWorld extends LiveWorld {
  factory: Address;
  /** A fresh address with no balance: the live merchant's payout. */
  payout: Address;
}

/**
 * A live world with a ForwarderFactory on anvil and no relayer (startLiveWorld({forwarders: true})), its live
 * merchant with a payout address (so it wins over the merchant's xpub) and an owner who signs in to the dashboard.
 */
const test = base.extend<object, { sweep: SweepWorld }>({
  sweep: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring
    async ({}, use) => {
      const world = await startLiveWorld({ forwarders: true });
      const deps = world.service.service.deps;
      const merchantId = world.service.merchant.merchant_id;
      const payout = privateKeyToAccount(generatePrivateKey()).address;
      if (!(await setPayout(deps.db, deps.clock, merchantId, 'evm', payout)).ok) throw new Error('payout refused');
      await addUser(deps, { merchantId, email: OWNER, role: 'owner', password: PASSWORD });
      await use({ ...world, factory: world.factory as Address, payout });
      await world.close();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
});

/** A live USDT payment, created once the sweeper checked the factory (payments are refused until then). */
async function createUsdtPayment(w: SweepWorld) {
  for (let i = 0; ; i++) {
    const r = await w.service.api('/api/v1/payments', {
      body: { amount: 12.5, currency: 'usdterc20', email: 'sweep@buyer.example', order_id: `sweep-${i}` },
    });
    if (r.status === 201) return r.json.data;
    if (i > 100) throw new Error(`no forwarder payment: ${r.status} ${r.text}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

const balanceOf = (w: SweepWorld, who: Address) =>
  w.anvil.public.readContract({ address: w.usdt, abi: erc20Abi, functionName: 'balanceOf', args: [who] });

test.describe('dashboard sweeps (live EVM forwarders on a real anvil, no relayer)', () => {
  test('the owner sweeps a paid forwarder with one wallet transaction the service built; the payout gets exactly the paid amount', async ({
    page,
    sweep,
  }, testInfo) => {
    const p = await createUsdtPayment(sweep);
    const id: string = p.payment.payment_id;
    const forwarder = getAddress(p.blockchain.pay_address);
    // The payment pays the forwarder of this payout, not an address of the merchant's xpub.
    expect(forwarder).toBe(forwarderAddress(sweep.factory, sweep.payout, forwarderSalt(id)));
    const units = parseUnits(String(p.blockchain.pay_amount), 6);
    await sweep.anvil.wallet.writeContract({
      address: sweep.usdt,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [forwarder, units],
      account: ANVIL_FUNDED,
      chain: null,
    });
    await sweep.anvil.test.mine({ blocks: CONFIRMATIONS });
    await expect
      .poll(async () => (await sweep.service.api(`/api/v1/payments/${id}`)).json.data.payment_status, {
        timeout: 20_000,
      })
      .toBe('finished');
    expect(await balanceOf(sweep, forwarder)).toBe(units);
    expect(await balanceOf(sweep, sweep.payout)).toBe(0n);

    await injectTestWallet(page, sweep.anvil, { wallets: [{ name: 'Test Wallet', uuid: 'sweep-1' }] });
    const merchantId = sweep.service.merchant.merchant_id;
    await page.goto(`${sweep.service.url}/dashboard/m/${merchantId}/sweeps`);
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Sweeps', level: 1 })).toBeVisible();
    const section = page.locator('section[data-network="eth"]');
    await expect(section).toContainText('No relayer on this network');
    const row = section.locator(`tr[data-forwarder="${forwarder}"]`);
    await expect(row).toContainText(id);
    await expect(row).toContainText(`${p.blockchain.pay_amount} USDT (Ethereum)`);
    await expect(row).toContainText('Not swept yet');
    await expectAccessible(page, 'sweeps');
    await shot(page, testInfo, 'dash-sweeps-unswept');

    await section.getByRole('button', { name: `Sweep to ${sweep.payout}` }).click();
    const sent = section.getByText(/Sweep of 1 forwarder sent in/);
    await expect(sent).toBeVisible();
    const link = sent.getByRole('link');
    const hash = (await link.textContent()) ?? '';
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    await expect(link).toHaveAttribute('href', `${EXPLORER}/tx/${hash}`);
    // The wallet sent exactly what the service built: to the factory, no value, from the wallet's account.
    const sends = (await walletCalls(page)).filter((c) => c.method === 'eth_sendTransaction');
    expect(sends).toHaveLength(1);
    const tx = sends[0]?.params?.[0] as { from: string; to: string; data: string; value?: string };
    expect(getAddress(tx.to)).toBe(sweep.factory);
    expect(tx.value).toBeUndefined();
    expect(tx.from.toLowerCase()).toBe(ANVIL_FUNDED.toLowerCase());

    await sweep.anvil.test.mine({ blocks: 1 });
    const receipt = await sweep.anvil.public.getTransactionReceipt({ hash: hash as `0x${string}` });
    expect(receipt.status).toBe('success');
    expect(await balanceOf(sweep, sweep.payout)).toBe(units);
    expect(await balanceOf(sweep, forwarder)).toBe(0n);
    // The sweeper sees the flush on chain; the page asks again until the list is empty.
    await expect(section.getByText('Nothing to sweep on eth.')).toBeVisible({ timeout: 20_000 });
    await expect(section.getByText(/; swept\.$/)).toBeVisible();
    await expectAccessible(page, 'sweeps after the sweep');
    await shot(page, testInfo, 'dash-sweeps-swept');

    await page.goto(`${sweep.service.url}/dashboard/m/${merchantId}/payments/${id}`);
    const said = page.locator('[data-field="sweep"]');
    await expect(said).toContainText(`Swept to ${sweep.payout} in tx ${hash}`);
    await expect(said.getByRole('link', { name: hash })).toHaveAttribute('href', `${EXPLORER}/tx/${hash}`);
    await expectAccessible(page, 'payment with a swept forwarder');
  });

  test.describe('settings', () => {
    // The refused checksum is a 422 the page shows under the field.
    test.use({ allowedErrors: /status of 422/ });
    test('the owner sees the payout address and where it wins, a bad checksum is refused under the field, a replacement is saved', async ({
      page,
      sweep,
    }) => {
      const merchantId = sweep.service.merchant.merchant_id;
      await page.goto(`${sweep.service.url}/dashboard/m/${merchantId}/settings`);
      await signIn(page);
      const section = page.locator('section[aria-labelledby="payout-h"]');
      await expect(section.locator('[data-field="payout"]')).toHaveText(sweep.payout);
      await expect(section).toContainText('the payout address wins on eth');
      await expectAccessible(page, 'settings with a payout address');
      const input = section.getByLabel('Payout address (EVM)');
      // One letter's case turned: the checksum catches the typo, and nothing changes.
      const typo = checksumTypo(sweep.payout);
      await input.fill(typo);
      await section.getByRole('button', { name: 'Replace payout address' }).click();
      await expect(section.locator('#payout-err')).toContainText('checksum');
      await expect(section.locator('[data-field="payout"]')).toHaveText(sweep.payout);
      const other = privateKeyToAccount(generatePrivateKey()).address;
      await input.fill(other);
      await section.getByRole('button', { name: 'Replace payout address' }).click();
      await expect(section.getByRole('status')).toContainText(`Payout address saved: ${other}`);
      await expect(section.locator('[data-field="payout"]')).toHaveText(other);
      await input.fill(sweep.payout);
      await section.getByRole('button', { name: 'Replace payout address' }).click();
      await expect(section.locator('[data-field="payout"]')).toHaveText(sweep.payout);
    });
  });
});
