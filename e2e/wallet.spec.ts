import type { Page } from '@playwright/test';
import { encodeFunctionData, erc20Abi, getAddress } from 'viem';
import { ANVIL_CHAIN_ID, ANVIL_FUNDED_2 } from '../core/chains/evm/testing/anvil.js';
import { expectAccessible } from './dashboard-fixtures.js';
import { shopEvents, shopOptions, shot } from './fixtures.js';
import {
  CONFIRMATIONS,
  EXPLORER,
  expect,
  injectTestWallet,
  type LiveWorld,
  test,
  type WalletCall,
  walletCalls,
} from './wallet-fixtures.js';

const ANVIL_HEX = `0x${ANVIL_CHAIN_ID.toString(16)}`;

/** Every request the page made, by URL: the wallet chunk must be among them only when a wallet exists. */
function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  return urls;
}

/** Loads the shop page with the merchant's public key (and a wallet injected before, when given). */
async function gotoShop(page: Page, url: string, publicKey: string): Promise<void> {
  await page.addInitScript((key) => {
    (window as unknown as { SHOP_OPTIONS: unknown }).SHOP_OPTIONS = { publicKey: key, locale: 'en' };
  }, publicKey);
  await page.goto(url);
}

/** Opens the live merchant's drop-in for `currency` from the shop page; returns the dialog. */
async function openCheckout(page: Page, currency: string, extra: Record<string, unknown> = {}) {
  await shopOptions(page, { cryptoCurrency: currency, ...extra });
  await page.getByRole('button', { name: 'Buy the mug' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.locator('img[data-field="qr"]')).toBeVisible();
  return dialog;
}

/** The one eth_sendTransaction the wallet got. */
async function sentTransaction(page: Page) {
  const sends = (await walletCalls(page)).filter((c) => c.method === 'eth_sendTransaction');
  expect(sends).toHaveLength(1);
  return (sends[0] as WalletCall).params?.[0] as { from: string; to: string; value: string; data?: string };
}

/** Mines the blocks a deposit needs on the live network. */
async function confirm(live: LiveWorld): Promise<void> {
  await live.anvil.test.mine({ blocks: CONFIRMATIONS });
}

test.describe('wallet pay in the drop-in (live EVM on a real anvil)', () => {
  test('ETH: one click sends exactly the payment_uri value to the payment address; finished; onSuccess', async ({
    page,
    live,
  }, testInfo) => {
    await injectTestWallet(page, live.anvil, { wallets: [{ name: 'Test Wallet', uuid: 'w-1' }] });
    const requests = recordRequests(page);
    await gotoShop(page, live.shopUrl, live.service.merchant.public_key);
    const dialog = await openCheckout(page, 'ETH');
    const button = dialog.getByRole('button', { name: 'Pay with Test Wallet' });
    await expect(button).toBeVisible();
    await expectAccessible(page, 'the wallet button', 'service-checkout');
    await shot(page, testInfo, 'wallet-1-button');
    expect(requests.filter((u) => /\/dropin\/v1\/chunks\/wallet-pay-[\w-]+\.js$/.test(u))).toHaveLength(1);

    // Keyboard: the button is reached and pressed like any other.
    await button.focus();
    await page.keyboard.press('Enter');
    const status = dialog.locator('[data-field="wallet_status"]');
    await expect(status).toContainText('Transaction sent');
    const hash = (await dialog.locator('[data-field="tx_hash"]').textContent()) ?? '';
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    await expect(dialog.getByRole('link', { name: 'View on the block explorer' })).toHaveAttribute(
      'href',
      `${EXPLORER}/tx/${hash}`,
    );
    await expect(dialog.getByRole('button', { name: 'Pay with Test Wallet' })).toHaveCount(0);
    await expectAccessible(page, 'the sent transaction', 'service-checkout');
    await shot(page, testInfo, 'wallet-2-sent');

    // Exactly the payment: the address on screen, the value of the payment_uri (the "Open in wallet" link).
    const tx = await sentTransaction(page);
    const address = (await dialog.locator('[data-field="pay_address"]').textContent()) ?? '';
    const uri = (await dialog.getByRole('link', { name: 'Open in wallet' }).getAttribute('href')) ?? '';
    expect(uri).toBe(`ethereum:${address}@${ANVIL_CHAIN_ID}?value=${BigInt(tx.value)}`);
    expect(getAddress(tx.to)).toBe(address);
    expect(tx.data).toBeUndefined();
    const methods = (await walletCalls(page)).map((c) => c.method);
    expect(methods).not.toContain('wallet_switchEthereumChain');

    // The status follows the chain; what was sent stays on screen (and focused) while it confirms.
    await live.anvil.test.mine({ blocks: 1 });
    await expect(dialog.locator('[data-field="status"]')).toHaveText(`Payment seen, confirming: 1 of ${CONFIRMATIONS}`);
    await expect(dialog.locator('[data-field="tx_hash"]')).toHaveText(hash);
    await expect(dialog.getByRole('link', { name: 'View on the block explorer' })).toBeVisible();
    await expect(status).toBeFocused();
    await live.anvil.test.mine({ blocks: CONFIRMATIONS - 1 });
    await expect(dialog.getByRole('heading', { name: 'Payment received' })).toBeVisible();
    const success = (await shopEvents(page)).find((e) => e.type === 'success')?.value as {
      payment_id: string;
      payment_status: string;
      actually_paid: string;
      pay_amount: string;
    };
    expect(success.payment_status).toBe('finished');
    expect(success.actually_paid).toBe(success.pay_amount);
    const onChain = await live.anvil.public.getTransaction({ hash: hash as `0x${string}` });
    expect(onChain.value).toBe(BigInt(tx.value));
  });

  test('USDT: transfer(address,uint256) of exactly the units to the token contract; finished', async ({
    page,
    live,
  }) => {
    await injectTestWallet(page, live.anvil, { wallets: [{ name: 'Test Wallet', uuid: 'w-1' }] });
    await gotoShop(page, live.shopUrl, live.service.merchant.public_key);
    const dialog = await openCheckout(page, 'USDTERC20');
    await dialog.getByRole('button', { name: 'Pay with Test Wallet' }).click();
    await expect(dialog.locator('[data-field="wallet_status"]')).toContainText('Transaction sent');
    const tx = await sentTransaction(page);
    const address = (await dialog.locator('[data-field="pay_address"]').textContent()) ?? '';
    const payAmount = (await dialog.locator('[data-field="pay_amount"]').textContent()) ?? '';
    const units =
      BigInt(payAmount.replace('.', '').replace(/^0+/, '')) * 10n ** BigInt(6 - (payAmount.split('.')[1]?.length ?? 0));
    expect(getAddress(tx.to)).toBe(live.usdt);
    expect(BigInt(tx.value)).toBe(0n);
    expect(tx.data).toBe(
      encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [address as `0x${string}`, units] }),
    );
    const uri = (await dialog.getByRole('link', { name: 'Open in wallet' }).getAttribute('href')) ?? '';
    expect(uri).toBe(`ethereum:${live.usdt}@${ANVIL_CHAIN_ID}/transfer?address=${address}&uint256=${units}`);
    await confirm(live);
    await expect(dialog.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  });

  test('a wallet on another chain is asked to switch to the payment’s chain first', async ({ page, live }) => {
    await injectTestWallet(page, live.anvil, { wallets: [{ name: 'Test Wallet', uuid: 'w-1' }], startChainId: '0x1' });
    await gotoShop(page, live.shopUrl, live.service.merchant.public_key);
    const dialog = await openCheckout(page, 'ETH');
    await dialog.getByRole('button', { name: 'Pay with Test Wallet' }).click();
    await expect(dialog.locator('[data-field="wallet_status"]')).toContainText('Transaction sent');
    const calls = await walletCalls(page);
    const methods = calls.map((c) => c.method);
    const sw = calls.find((c) => c.method === 'wallet_switchEthereumChain');
    expect(sw?.params).toEqual([{ chainId: ANVIL_HEX }]);
    expect(methods.indexOf('wallet_switchEthereumChain')).toBeLessThan(methods.indexOf('eth_sendTransaction'));
    await confirm(live);
    await expect(dialog.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  });

  test('rejected in the wallet (4001): back to the QR with a short message, and the button works again', async ({
    page,
    live,
  }, testInfo) => {
    await injectTestWallet(page, live.anvil, { wallets: [{ name: 'Test Wallet', uuid: 'w-1' }], reject: true });
    await gotoShop(page, live.shopUrl, live.service.merchant.public_key);
    const dialog = await openCheckout(page, 'ETH');
    const button = dialog.getByRole('button', { name: 'Pay with Test Wallet' });
    await button.click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'You cancelled in your wallet. Try again, or pay with the QR code.',
    );
    await expect(dialog.locator('img[data-field="qr"]')).toBeVisible();
    await expect(dialog.locator('[data-field="status"]')).toHaveText('Waiting for your payment');
    await expect(button).toHaveAttribute('aria-disabled', 'false');
    await expectAccessible(page, 'the rejection message', 'service-checkout');
    await shot(page, testInfo, 'wallet-rejected');
    await button.click();
    await expect
      .poll(async () => (await walletCalls(page)).filter((c) => c.method === 'eth_sendTransaction').length)
      .toBe(2);
  });

  test('not enough of the token in the wallet account: a clear message, nothing sent', async ({ page, live }) => {
    // anvil's second account has ETH but none of the test token.
    await injectTestWallet(page, live.anvil, {
      wallets: [{ name: 'Test Wallet', uuid: 'w-1' }],
      account: ANVIL_FUNDED_2,
    });
    await gotoShop(page, live.shopUrl, live.service.merchant.public_key);
    const dialog = await openCheckout(page, 'USDTERC20');
    await dialog.getByRole('button', { name: 'Pay with Test Wallet' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'This wallet account does not hold enough USDT for this payment and its network fee.',
    );
    expect((await walletCalls(page)).map((c) => c.method)).not.toContain('eth_sendTransaction');
    await expect(dialog.locator('img[data-field="qr"]')).toBeVisible();
  });

  test('two wallets announced: two buttons named by their wallets; a second click while one is pending does nothing', async ({
    page,
    live,
  }, testInfo) => {
    await injectTestWallet(page, live.anvil, {
      wallets: [
        { name: 'Alpha Wallet', uuid: 'w-a' },
        { name: 'Beta Wallet', uuid: 'w-b' },
      ],
      hold: true,
    });
    await gotoShop(page, live.shopUrl, live.service.merchant.public_key);
    const dialog = await openCheckout(page, 'ETH');
    const alpha = dialog.getByRole('button', { name: 'Pay with Alpha Wallet' });
    const beta = dialog.getByRole('button', { name: 'Pay with Beta Wallet' });
    await expect(alpha).toBeVisible();
    await expect(beta).toBeVisible();
    await expect(dialog.getByRole('button', { name: /^Pay with/ })).toHaveCount(2);
    await shot(page, testInfo, 'wallet-two');
    await alpha.click();
    await expect(dialog.locator('[data-field="wallet_status"]')).toHaveText('Confirm the payment in your wallet…');
    await expect(alpha).toHaveAttribute('aria-disabled', 'true');
    // A real click each (force: Playwright itself would wait for an aria-disabled button to enable).
    await alpha.click({ force: true });
    await beta.click({ force: true });
    expect((await walletCalls(page)).map((c) => `${c.wallet} ${c.method}`)).toEqual([
      'Alpha Wallet eth_requestAccounts',
    ]);
    await page.evaluate(() => (window as unknown as { __releaseWallet: () => void }).__releaseWallet());
    await expect(dialog.locator('[data-field="wallet_status"]')).toContainText('Transaction sent');
    const calls = await walletCalls(page);
    expect(calls.every((c) => c.wallet === 'Alpha Wallet')).toBe(true);
    expect(calls.filter((c) => c.method === 'eth_sendTransaction')).toHaveLength(1);
  });

  test('an injected wallet that does not announce (window.ethereum) gets one button, in the customer’s locale', async ({
    page,
    live,
  }) => {
    await injectTestWallet(page, live.anvil, { wallets: [], injectedOnly: true });
    await gotoShop(page, live.shopUrl, live.service.merchant.public_key);
    const dialog = await openCheckout(page, 'ETH', { locale: 'de' });
    await expect(dialog.getByRole('button', { name: 'Mit der Wallet im Browser bezahlen' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: /bezahlen/ })).toHaveCount(1);
  });

  test('no wallet in the browser: no button, and the wallet chunk is never fetched', async ({ page, live }) => {
    const requests = recordRequests(page);
    await gotoShop(page, live.shopUrl, live.service.merchant.public_key);
    const dialog = await openCheckout(page, 'ETH');
    // The QR is on screen and what follows it (live status, closing screens) has loaded.
    await expect
      .poll(() => requests.filter((u) => /\/chunks\/(live|screens)-/.test(u)).length, { timeout: 10_000 })
      .toBe(2);
    await expect(dialog.getByRole('button', { name: /^Pay with/ })).toHaveCount(0);
    expect(requests.filter((u) => u.includes('wallet'))).toEqual([]);
  });

  test('test mode (the sandbox chain): no button even with a wallet, and no wallet chunk', async ({
    page,
    world,
    live,
  }) => {
    await injectTestWallet(page, live.anvil, { wallets: [{ name: 'Test Wallet', uuid: 'w-1' }] });
    const requests = recordRequests(page);
    await gotoShop(page, world.shopUrl, world.service.merchant.public_key);
    const dialog = await openCheckout(page, 'ETH');
    await expect(dialog.getByRole('button', { name: 'Simulate payment' })).toBeVisible();
    await expect
      .poll(() => requests.filter((u) => /\/chunks\/(live|screens)-/.test(u)).length, { timeout: 10_000 })
      .toBe(2);
    await expect(dialog.getByRole('button', { name: /^Pay with/ })).toHaveCount(0);
    expect(requests.filter((u) => u.includes('wallet'))).toEqual([]);
  });
});

test.describe('wallet pay on the hosted page', () => {
  test('a payment link paid in ETH from the wallet, end to end, with the drop-in’s own wallet chunk', async ({
    page,
    live,
  }, testInfo) => {
    const created = await live.service.api('/api/v1/payment-links', {
      body: { amount: 30, currency: 'eth', email: 'cy@example.com', order_id: 'W-1' },
    });
    expect(created.status).toBe(201);
    await injectTestWallet(page, live.anvil, { wallets: [{ name: 'Test Wallet', uuid: 'w-1' }] });
    const requests = recordRequests(page);
    await page.goto(created.json.data.payment.hosted_payment_url);
    const checkout = page.getByRole('dialog', { name: 'Pay with crypto' });
    await checkout.getByRole('button', { name: 'Pay with Test Wallet' }).click();
    await expect(checkout.locator('[data-field="wallet_status"]')).toContainText('Transaction sent');
    expect(requests.filter((u) => /\/dropin\/v1\/chunks\/wallet-pay-[\w-]+\.js$/.test(u))).toHaveLength(1);
    expect(requests.some((u) => u.endsWith('/dropin/v1/checkout.module.js'))).toBe(true);
    const tx = await sentTransaction(page);
    const address = (await checkout.locator('[data-field="pay_address"]').textContent()) ?? '';
    expect(getAddress(tx.to)).toBe(address);
    await shot(page, testInfo, 'wallet-hosted-sent');
    await confirm(live);
    await expect(checkout.getByRole('heading', { name: 'Payment received' })).toBeVisible();
    const id: string = created.json.data.payment.payment_id;
    expect((await live.service.api(`/api/v1/payments/${id}`)).json.data.payment_status).toBe('finished');
  });
});
