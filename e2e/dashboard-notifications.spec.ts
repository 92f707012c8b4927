import { rawNumber, until } from '../server/testing/until.js';
import { expectAccessible, signIn } from './dashboard-fixtures.js';
import { expect, shot, test } from './fixtures.js';
import { mailWorld } from './mail-world.js';

/*
 * The Notifications page in Chromium (issue 29, item 4): a viewer chooses to be mailed when a payment finishes, and
 * the next finished payment arrives at a real SMTP relay; then switches to the daily digest, which stays chosen.
 * axe-core checks the page.
 */

const VIEWER = 'notify-viewer@shop.example';
const PASSWORD = 'correct horse battery';
const w = mailWorld(
  { MAIL_FROM: 'Payments <payments@shop.example>', MAIL_POLL_MS: '100' },
  { email: VIEWER, role: 'viewer', password: PASSWORD },
);

test('a member chooses notifications: immediate mail for a finished payment, then the daily digest', async ({
  page,
}, testInfo) => {
  await page.goto(`${w.t.url}/dashboard/`);
  await signIn(page, VIEWER, PASSWORD);
  await page.getByRole('link', { name: 'Notifications' }).click();
  await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
  const finished = page.getByRole('checkbox', { name: 'A payment finished' });
  await expect(finished).not.toBeChecked();
  await expectAccessible(page, 'Notifications page');
  await finished.check();
  await page.getByRole('radio', { name: /One mail per event/ }).check();
  await page.getByRole('button', { name: 'Save notification choices' }).click();
  await expect(page.getByText('Notification choices saved')).toBeVisible();

  const c = await w.t.api('/api/v1/payments', { body: { amount: 25, currency: 'btc', email: 'buyer@example.com' } });
  const id = c.json.data.payment.payment_id as string;
  await w.t.api('/api/v1/sandbox/transfers', {
    body: { currency: 'btc', address: c.json.data.blockchain.pay_address, amount: rawNumber(c.text, 'pay_amount') },
  });
  await w.t.api('/api/v1/sandbox/blocks', { body: { network: 'btc', count: 2 } });
  const [mail] = await until(
    async () => w.relay.accepted().filter((m) => JSON.stringify(m.parsed.to).includes(VIEWER)),
    (ms) => ms.length >= 1,
  );
  expect(mail?.parsed.subject).toContain(`Payment ${id} finished`);

  await page.getByRole('radio', { name: /One daily digest at 07:00 UTC/ }).check();
  await page.getByRole('button', { name: 'Save notification choices' }).click();
  await expect(page.getByText('Notification choices saved')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('radio', { name: /One daily digest/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'A payment finished' })).toBeChecked();
  await expectAccessible(page, 'Notifications page, saved');
  await shot(page, testInfo, 'dash-notifications');
});
