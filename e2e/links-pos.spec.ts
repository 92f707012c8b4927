import type { Page } from '@playwright/test';
import { listMails } from '../core/mail/mail-log.js';
import { addUser } from '../core/users/accounts.js';
import { expect, expectAccessible, PASSWORD, signIn, test } from './dashboard-fixtures.js';
import { shot } from './fixtures.js';

/** Half of an LTC amount (an underpayment) and what is then still due, in exact base units: no float touches them. */
function decimalOps(a: string) {
  const scale = 8;
  const [int = '0', frac = ''] = a.split('.');
  const units = BigInt(int + frac.padEnd(scale, '0'));
  const text = (u: bigint) => {
    const s = u.toString().padStart(scale + 1, '0');
    return `${s.slice(0, -scale)}.${s.slice(-scale)}`.replace(/0+$/, '').replace(/\.$/, '');
  };
  return { half: text(units / 2n), minusHalf: text(units - units / 2n) };
}

/** A customer opens a reusable link, types their e-mail and pays on the hosted page with the sandbox button. */
async function payThroughLink(page: Page, url: string, email: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  const checkout = page.getByRole('dialog', { name: 'Pay with crypto' });
  await expect(checkout.locator('[data-field="pay_currency"]')).toHaveText('LTC');
  await checkout.getByRole('button', { name: 'Simulate payment' }).click();
  await expect(checkout.getByRole('heading', { name: 'Payment received' })).toBeVisible();
}

test.describe('reusable payment links', () => {
  // A refused amount is the page's 422 answer, which Chromium reports on the console.
  test.use({ allowedErrors: /status of 422/ });
  test('a link made in the dashboard is paid by two customers; its page lists both payments and the total', async ({
    page,
    world,
    dash,
  }, testInfo) => {
    await page.goto(dash.url(dash.test.merchant_id, 'links'));
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Reusable links' })).toBeVisible();
    await page.getByLabel('Name (customers see it)').fill('Workshop seat');
    await page.getByLabel('Price (USD)').fill('25');
    await page.getByRole('checkbox', { name: 'LTC', exact: true }).check();
    await page.getByLabel('Most payments (optional)').fill('10');
    await page.getByRole('button', { name: 'Create link' }).click();
    await page.getByRole('link', { name: 'Workshop seat' }).click();
    await expect(page.getByRole('heading', { name: 'Workshop seat' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'QR code of the payment link' })).toBeVisible();
    await expectAccessible(page, 'a reusable link');
    const linkUrl = (await page.locator('[data-field="hosted-url"] a.mono').textContent()) ?? '';
    expect(linkUrl).toMatch(/\/l\/[A-Za-z0-9_-]{32}$/);
    const detailUrl = page.url();

    await page.goto(linkUrl);
    await expect(page.getByRole('heading', { name: 'Workshop seat' })).toBeVisible();
    await expect(page.locator('[data-field="price"]')).toHaveText('$25.00');
    await expectAccessible(page, "a reusable link's page");
    await shot(page, testInfo, 'link-page');
    await payThroughLink(page, linkUrl, 'first@buyer.example');
    await payThroughLink(page, linkUrl, 'second@buyer.example');

    await page.goto(detailUrl);
    const rows = page.locator('tbody tr');
    await expect(rows).toHaveCount(2);
    await expect(page.getByRole('cell', { name: 'first@buyer.example' })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'second@buyer.example' })).toBeVisible();
    await expect(rows.locator('[data-status]')).toHaveText(['finished', 'finished']);
    await expect(page.locator('[data-field="link-totals"]')).toHaveText('2 payments, 2 paid: $50.00');
    await shot(page, testInfo, 'link-detail');

    // Deactivated at once: the page says so, offers no form, and makes no payment.
    await page.getByRole('button', { name: 'Deactivate link' }).click();
    await expect(page.locator('[data-field="link-status"]')).toHaveText('deactivated');
    const before = (await world.service.api('/api/v1/payments?limit=500')).json.data.payments.length;
    await page.goto(linkUrl);
    await expect(page.getByText('This payment link has been deactivated and takes no payments.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Continue to payment' })).toHaveCount(0);
    await expectAccessible(page, 'a deactivated link');
    expect((await world.service.api('/api/v1/payments?limit=500')).json.data.payments.length).toBe(before);
  });

  test('a link at its limit says so; an amount below the minimum is refused on the page and by the API', async ({
    page,
    world,
  }) => {
    const limited = (
      await world.service.api('/api/v1/links', {
        body: { name: 'One seat', amount: 10, max_payments: 1, currencies: ['ltc'] },
      })
    ).json.data;
    await payThroughLink(page, limited.url, 'only@buyer.example');
    const before = (await world.service.api('/api/v1/payments?limit=500')).json.data.payments.length;
    await page.goto(limited.url);
    await expect(page.getByText('This payment link has reached its limit and takes no more payments.')).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveCount(0);
    expect((await world.service.api('/api/v1/payments?limit=500')).json.data.payments.length).toBe(before);

    const open = (
      await world.service.api('/api/v1/links', { body: { name: 'Donation', min_amount: 5, currencies: ['ltc'] } })
    ).json.data;
    await page.goto(open.url);
    await page.getByLabel('Amount (USD)').fill('4.99');
    await page.getByLabel('Email').fill('giver@buyer.example');
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await expect(page.getByText('The amount must be at least 5 USD')).toBeVisible();
    await expect(page.getByLabel('Amount (USD)')).toHaveAttribute('aria-invalid', 'true');
    await expectAccessible(page, 'a refused amount');
    const api = await page.request.post(
      `${world.service.url}/api/dropin/v1/links/${open.url.split('/l/')[1]}/payments`,
      {
        data: { email: 'giver@buyer.example', amount: 4.99 },
      },
    );
    expect(api.status()).toBe(422);
    expect((await api.json()).errors.amount[0]).toContain('at least 5 USD');
    expect((await world.service.api('/api/v1/payments?limit=500')).json.data.payments.length).toBe(before);
  });
});

const screens = [
  { name: 'phone (390 px)', viewport: { width: 390, height: 844 } },
  { name: 'tablet', viewport: { width: 820, height: 1180 } },
];

for (const screen of screens) {
  test.describe(`the point of sale on a ${screen.name}`, () => {
    test.use({
      viewport: screen.viewport,
      allowedErrors: /ERR_INTERNET_DISCONNECTED|ERR_NAME_NOT_RESOLVED|ERR_INCOMPLETE_CHUNKED_ENCODING|\/events/,
    });

    test('a cashier takes three payments in a row, sees an underpaid one, rides out a network drop, and is refused the rest', async ({
      page,
      world,
      dash,
    }, testInfo) => {
      const deps = world.service.service.deps;
      const email = `till-${screen.viewport.width}@shop.example`;
      await addUser(deps, { merchantId: dash.test.merchant_id, email, role: 'cashier', password: PASSWORD });
      await page.goto(`${world.service.url}/dashboard/pos`);
      await signIn(page, email);
      await expect(page.getByRole('heading', { name: 'Point of sale' })).toBeVisible();
      await expect(page.getByRole('navigation').getByRole('link')).toHaveText(['Point of sale']);
      await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/dashboard/manifest.webmanifest');
      const manifest = await (await page.request.get(`${world.service.url}/dashboard/manifest.webmanifest`)).json();
      expect(manifest).toMatchObject({ display: 'standalone', start_url: '/dashboard/pos' });
      for (const icon of manifest.icons)
        expect((await page.request.get(`${world.service.url}${icon.src}`)).headers()['content-type']).toBe('image/png');
      await page.getByLabel('Pay with').selectOption('LTC');
      await expectAccessible(page, 'the keypad');
      // Today's sales are the merchant's, other tests' included: this test's two paid sales add to what was there.
      const total = page.locator('[data-field="today-total"]');
      await expect(total).toHaveText(/^\d+ paid: \$[\d,]+\.\d\d$/);
      const [, count = '0', dollars = '0'] = /^(\d+) paid: \$([\d,.]+)$/.exec((await total.textContent()) ?? '') ?? [];
      const cents = BigInt(dollars.replace(/[,.]/g, '')) + 3675n;
      const expectedTotal = `${Number(count) + 2} paid: $${(cents / 100n).toLocaleString('en-US')}.${(cents % 100n).toString().padStart(2, '0')}`;

      /** Types an amount, picks a tip, charges: the QR screen, with the exact amount to pay. */
      const charge = async (keys: string[], tip: string, total: string) => {
        for (const k of keys) await page.getByRole('button', { name: k, exact: true }).click();
        await page.getByRole('button', { name: tip, exact: true }).click();
        await page.getByRole('button', { name: `Charge ${total}` }).click();
        await expect(page.getByRole('heading', { name: `Scan to pay ${total}` })).toBeVisible();
        const amount = (await page.locator('[data-field="pay_amount"]').textContent()) ?? '';
        const address = (await page.locator('.pos-screen .mono').textContent()) ?? '';
        await expect(page.getByRole('img', { name: `QR code to pay ${amount} LTC` })).toBeVisible();
        return { amount, address };
      };
      const pay = async (address: string, amount: string) => {
        await world.service.api('/api/v1/sandbox/transfers', { body: { currency: 'ltc', address, amount } });
        await world.service.api('/api/v1/sandbox/blocks', { body: { count: 2, network: 'ltc' } });
      };

      // 1: $12.50 with a 10% tip, paid in full; the customer gives an address for the receipt.
      const customer = `buyer-${screen.viewport.width}@customer.example`;
      await page.getByLabel('Customer e-mail (for a receipt)').fill(customer);
      const first = await charge(['1', '2', '5', '0'], '10%', '$13.75');
      await expectAccessible(page, 'the QR screen');
      await shot(page, testInfo, `pos-qr-${screen.viewport.width}`);
      await pay(first.address, first.amount);
      await expect(page.getByRole('heading', { name: 'Paid', exact: true })).toBeVisible();
      await shot(page, testInfo, `pos-paid-${screen.viewport.width}`);
      const receipts = async () =>
        (await listMails(deps.db, dash.test.merchant_id, { limit: 100 })).mails.filter((m) => m.kind === 'receipt');
      expect((await receipts()).filter((m) => m.to_address === customer)).toHaveLength(1);
      await page.getByRole('button', { name: 'New sale' }).click();
      // The next customer gives none: the field starts empty again.
      await expect(page.getByLabel('Customer e-mail (for a receipt)')).toHaveValue('');

      // 2: $8.00, half paid: what is still due, exactly.
      const second = await charge(['8', '00'], 'No tip', '$8.00');
      const { half, minusHalf } = decimalOps(second.amount);
      await pay(second.address, half);
      await expect(page.getByRole('heading', { name: `Paid too little: ${minusHalf} LTC still due` })).toBeVisible();
      await expectAccessible(page, 'an underpaid sale');
      await page.getByRole('button', { name: 'New sale' }).click();

      // 3: the network is cut for 5 s while the customer pays. The device goes offline, every new request to the
      // event stream fails, and the stream already open is dropped (the service's connections are closed, as a real
      // cut ends them): the payment's events during the cut reach nobody. Back online, the screen reconnects and
      // reads the payment again, so it shows the true status, which it could not have learnt during the cut.
      const third = await charge(['2', '0', '00'], '15%', '$23.00');
      const thirdId = (await page.locator('.pos-screen').getAttribute('data-payment')) ?? '';
      expect(thirdId).not.toBe('');
      const cut = (route: import('@playwright/test').Route) => route.abort('internetdisconnected');
      await page.route('**/events', cut);
      await page.context().setOffline(true);
      world.service.server.closeAllConnections();
      await expect(page.getByText('Connection lost: reconnecting…')).toBeVisible();
      await pay(third.address, third.amount);
      const status = async () => (await world.service.api(`/api/v1/payments/${thirdId}`)).json.data.payment_status;
      await expect.poll(status).toBe('finished');
      // The drop lasts 5 s by design of the scenario (the payment completed meanwhile), not to wait for anything.
      await page.waitForTimeout(5000);
      // Through the whole cut the screen still shows the sale as it last knew it: nothing reached it.
      await expect(page.getByRole('heading', { name: 'Scan to pay $23.00' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Paid', exact: true })).toHaveCount(0);
      await page.unroute('**/events', cut);
      await page.context().setOffline(false);
      await expect(page.getByRole('heading', { name: 'Paid', exact: true })).toBeVisible();
      await expect(page.getByText('Connection lost: reconnecting…')).toHaveCount(0);
      await page.getByRole('button', { name: 'New sale' }).click();
      await expect(total).toHaveText(expectedTotal);

      // What a cashier cannot do is refused by the service itself, not only hidden.
      const session = await (await page.request.get(`${world.service.url}/dashboard/api/session`)).json();
      const csrf = { 'x-csrf-token': session.data.csrf_token };
      const base = `${world.service.url}/dashboard/api/merchants/${dash.test.merchant_id}`;
      const sale = (
        await (
          await page.request.get(
            `${base}/pos/sales?from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`,
          )
        ).json()
      ).data.sales[0];
      const refused = [
        await page.request.post(`${base}/payments/${sale.payment_id}/refund`, { headers: csrf, data: {} }),
        await page.request.get(`${base}/exports/payments.csv`),
        await page.request.get(`${base}/keys`),
        await page.request.post(`${base}/keys`, { headers: csrf, data: {} }),
        await page.request.get(`${base}/settings`),
        await page.request.patch(`${base}/settings`, { headers: csrf, data: { underpaid_tolerance_percent: 1 } }),
      ];
      expect(refused.map((r) => r.status())).toEqual([403, 403, 403, 403, 403, 403]);
    });
  });
}

test('an owner invites a cashier from the Users page and switches them between cashier and viewer', async ({
  page,
  dash,
}) => {
  const email = `cash-${Date.now()}@shop.example`;
  await page.goto(dash.url(dash.test.merchant_id, 'users'));
  await signIn(page);
  const invite = page.getByRole('form', { name: 'Invite a user' });
  await invite.getByLabel('Email').fill(email);
  await invite.getByLabel('Role').selectOption('cashier');
  await invite.getByRole('button', { name: 'Invite' }).click();
  const row = page.locator(`tr[data-user="${email}"]`);
  await expect(row.locator('[data-field="role"]')).toHaveText('cashier');
  await page.getByRole('button', { name: 'Done, I saved it' }).click();
  await row.getByRole('button', { name: `Make ${email} a viewer` }).click();
  await expect(row.locator('[data-field="role"]')).toHaveText('viewer');
  await row.getByRole('button', { name: `Make ${email} a cashier` }).click();
  await expect(row.locator('[data-field="role"]')).toHaveText('cashier');
  await expectAccessible(page, 'the Users page with a cashier');
});
