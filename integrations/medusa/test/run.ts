/**
 * The proof of the Medusa provider (issue 32), run by test.sh: a real Medusa v2 server on the local PostgreSQL
 * (a database of its own, dropped at the end), the real service (server/main.ts bundled as in production, test
 * mode, sandbox chain), the storefront page and the hosted page in Chromium. Prints one line per check and
 * "medusa: N passed, M failed"; exits 1 on any failure.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { signature } from '../../../core/webhooks/sign.js';
import { bundleService, freePort, type ServiceProcess, spawnService } from '../../../server/testing/service-process.js';
import {
  APP,
  check,
  fail,
  finish,
  http,
  type Json,
  medusaBin,
  medusaCli,
  medusaEnv,
  PG_BASE,
  PROVIDER,
  ROOT,
  say,
  serveStorefront,
  sleep,
  tally,
  until,
} from './harness.js';

async function main(): Promise<void> {
  process.chdir(ROOT);
  const tmp = mkdtempSync(join(tmpdir(), 'medusa-proof-'));
  const dbName = `medusa_test_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const db = `${PG_BASE}/${dbName}`;
  const cleanups: (() => Promise<void> | void)[] = [];
  const children: ChildProcess[] = [];
  let medusaLog = '';
  let serviceErr = () => '';
  try {
    const [servicePort, medusaPort, shopPort] = [await freePort(), await freePort(), await freePort()];
    const medusa = `http://127.0.0.1:${medusaPort}`;
    const shop = `http://127.0.0.1:${shopPort}`;

    // The service: production bundle, a SQLite store of its own, a test-mode merchant whose webhook URL is
    // Medusa's payment webhook route for this provider.
    const bundle = await bundleService();
    cleanups.push(() => bundle.dispose());
    const storeUrl = `sqlite:${join(tmp, 'service.sqlite')}`;
    const service: ServiceProcess = await spawnService(bundle.path, {
      DATABASE_URL: storeUrl,
      DEMO_MERCHANT: 'false',
      PORT: String(servicePort),
      PUBLIC_URL: `http://127.0.0.1:${servicePort}`,
    });
    children.push(service.child);
    serviceErr = () => service.stderr();
    await service.listening();
    const made = spawnSync(
      join(ROOT, 'node_modules/.bin/tsx'),
      [
        'server/admin-cli.ts',
        'merchant',
        'create',
        '--name',
        'Medusa shop',
        '--mode',
        'test',
        '--webhook-url',
        `${medusa}/hooks/payment/crypto_crypto`,
        '--json',
      ],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: storeUrl, LOG_LEVEL: 'warn' }, encoding: 'utf8' },
    );
    if (made.status !== 0) throw new Error(`merchant create failed: ${made.stderr}`);
    const merchant = JSON.parse(made.stdout.trim().split('\n').pop() ?? '{}');
    const api = (path: string, body?: unknown) =>
      http(`${service.url}/api/v1${path}`, { body, headers: { 'x-api-key': merchant.secret_key } });
    say(`service on ${service.url}, merchant ${merchant.merchant_id}`);

    // Medusa: its schema in the new database, an admin user, then the server.
    const env = medusaEnv(db, {
      PORT: String(medusaPort),
      STOREFRONT_ORIGIN: shop,
      CRYPTO_PAYMENTS_URL: service.url,
      CRYPTO_PAYMENTS_SECRET_KEY: merchant.secret_key,
      CRYPTO_PAYMENTS_WEBHOOK_SECRET: merchant.webhook_secret,
    });
    medusaCli(['db:migrate'], env);
    say('medusa db:migrate done');
    medusaCli(['user', '-e', 'admin@example.com', '-p', 'proof-password'], env);
    say('medusa admin user created');
    const t0 = Date.now();
    const server = spawn(medusaBin, ['start'], { cwd: APP, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(server);
    server.stdout?.on('data', (d) => {
      medusaLog += String(d);
    });
    server.stderr?.on('data', (d) => {
      medusaLog += String(d);
    });
    await until('Medusa /health', async () => (await http(`${medusa}/health`)).status === 200, 180_000);
    say(`medusa start: ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    const token = (
      await http(`${medusa}/auth/user/emailpass`, {
        body: { email: 'admin@example.com', password: 'proof-password' },
      })
    ).json.token;
    const adm = (path: string, body?: unknown) =>
      http(`${medusa}/admin${path}`, { body, headers: { authorization: `Bearer ${token}` } });
    const sc = (await adm('/sales-channels')).json.sales_channels[0].id;
    const eur = (
      await adm('/regions', {
        name: 'Europe',
        currency_code: 'eur',
        countries: ['de'],
        payment_providers: [PROVIDER],
      })
    ).json.region;
    // ISK: a currency Medusa sells in and the service cannot price (core/money/fiat.ts).
    const isk = (
      await adm('/regions', {
        name: 'Iceland',
        currency_code: 'isk',
        countries: ['is'],
        payment_providers: [PROVIDER],
      })
    ).json.region;
    const product = (
      await adm('/products', {
        title: 'Mug',
        status: 'published',
        options: [{ title: 'Size', values: ['One'] }],
        variants: [
          {
            title: 'One',
            options: { Size: 'One' },
            manage_inventory: false,
            prices: [
              { currency_code: 'eur', amount: 20 },
              { currency_code: 'isk', amount: 3000 },
            ],
          },
        ],
        sales_channels: [{ id: sc }],
      })
    ).json.product;
    const key = (await adm('/api-keys', { title: 'storefront', type: 'publishable' })).json.api_key;
    await adm(`/api-keys/${key.id}/sales-channels`, { add: [sc] });
    const store = (path: string, body?: unknown) =>
      http(`${medusa}/store${path}`, { body, headers: { 'x-publishable-api-key': key.token } });
    const newCart = async (regionId: string, email: string) => {
      const cart = (await store('/carts', { region_id: regionId, email })).json.cart;
      await store(`/carts/${cart.id}/line-items`, { variant_id: product.variants[0].id, quantity: 1 });
      return cart.id as string;
    };
    const session = async (cartId: string, email: string) => {
      const pc = (await store('/payment-collections', { cart_id: cartId })).json.payment_collection;
      return store(`/payment-collections/${pc.id}/payment-sessions`, { provider_id: PROVIDER, data: { email } });
    };
    const paymentFields =
      'fields=id,payment_status,payment_collections.id,payment_collections.payments.id,' +
      'payment_collections.payments.data,payment_collections.payments.captured_at&limit=50';

    // 1. The storefront page opens the hosted page for the cart's session; the hosted page is paid on the sandbox
    //    chain; only our signed webhook reaching Medusa makes the order.
    const shopServer = await serveStorefront(shopPort);
    cleanups.push(() => new Promise<void>((r) => shopServer.close(() => r())));
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
    cleanups.push(() => browser.close());
    const paidCart = await newCart(eur.id, 'ann@example.com');
    const page = await browser.newPage();
    await page.goto(`${shop}/checkout.html?medusa=${medusa}&key=${key.token}&cart=${paidCart}`);
    await page.getByText('€20.00').waitFor();
    const [hosted] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Pay with crypto' }).click(),
    ]);
    await hosted.waitForURL(/\/pay\/|\/checkout\/|\/p\//, { timeout: 30_000 }).catch(() => undefined);
    const dialog = hosted.getByRole('dialog', { name: 'Pay with crypto' });
    await dialog.locator('[data-field="pay_currency"]').waitFor();
    check(
      'the hosted page asks for BTC for the cart',
      (await dialog.locator('[data-field="pay_currency"]').textContent()) === 'BTC',
    );
    const paidPc = (await store(`/carts/${paidCart}?fields=*payment_collection.payment_sessions`)).json.cart
      .payment_collection;
    const paidSession = (paidPc.payment_sessions as Json[]).find((s) => s.provider_id === PROVIDER);
    const paidId: string = paidSession.data.payment_id;
    const ours = (await api(`/payments/${paidId}`)).json.data;
    check(
      'our payment is priced in the cart currency and amount',
      String(ours.price_amount) === '20' && ours.price_currency === 'EUR',
      JSON.stringify([ours.price_amount, ours.price_currency]),
    );
    check(
      'the cart is no order before payment',
      !(await store(`/carts/${paidCart}?fields=+completed_at`)).json.cart.completed_at,
    );
    await dialog.getByRole('button', { name: 'Simulate payment' }).click();
    await dialog.getByRole('heading', { name: 'Payment received' }).waitFor({ timeout: 60_000 });
    await page.locator('#status[data-state="ordered"]').waitFor({ timeout: 90_000 });
    check('the storefront sees the cart become an order', true);
    const orders = (await adm(`/orders?${paymentFields}`)).json.orders as Json[];
    const paidOrder = orders.find((o) =>
      (o.payment_collections as Json[]).some((pc) =>
        (pc.payments as Json[]).some((p) => p.data?.payment_id === paidId),
      ),
    );
    check('the order has a captured payment', paidOrder?.payment_status === 'captured', JSON.stringify(orders));
    const delivered = (await api(`/webhook-deliveries?payment_id=${paidId}&status=succeeded`)).json.data;
    check('our finished webhook was delivered to Medusa', (delivered.deliveries ?? delivered).length > 0);
    check('the provider applied our signed finished webhook', medusaLog.includes(`${paidId} is finished: captured`));
    say('paid checkout done');

    // 2. Underpaid: the payment goes partially_paid, its webhook reaches Medusa, and no order is made, neither by
    //    the webhook nor by the storefront asking Medusa to complete the cart.
    const underCart = await newCart(eur.id, 'bo@example.com');
    const underCreated = await session(underCart, 'bo@example.com');
    if (underCreated.status !== 200) throw new Error(`payment session: ${underCreated.text}`);
    const underSession = underCreated.json.payment_collection.payment_sessions[0];
    const underId: string = underSession.data.payment_id;
    const under = (await api(`/payments/${underId}`)).json.data;
    const [whole, frac = ''] = String(under.pay_amount).split('.');
    const units = BigInt(whole + frac.padEnd(8, '0'));
    const half = (units / 2n).toString().padStart(9, '0');
    await api('/sandbox/transfers', {
      currency: 'BTC',
      address: under.pay_address,
      amount: `${half.slice(0, -8)}.${half.slice(-8)}`,
    });
    await api('/sandbox/blocks', { count: 2, network: 'btc' });
    await until('partially_paid delivered', async () => {
      const s = (await api(`/payments/${underId}`)).json.data.payment_status;
      const d = (await api(`/webhook-deliveries?payment_id=${underId}&status=succeeded`)).json.data;
      return s === 'partially_paid' && (d.deliveries ?? d).length > 0;
    });
    await until('the provider read the partially_paid webhook', async () =>
      medusaLog.includes(`${underId} is partially_paid: requires_more`),
    ).catch(() => undefined);
    check(
      'our signed partially_paid webhook reached the provider, reported as requires_more',
      medusaLog.includes(`${underId} is partially_paid: requires_more`),
    );
    const completeUnder = await store(`/carts/${underCart}/complete`, {});
    const underState = (await store(`/carts/${underCart}?fields=+completed_at`)).json.cart;
    check(
      'an underpaid payment makes no order (webhook, then the storefront completing)',
      !underState.completed_at && completeUnder.json?.type !== 'order',
      completeUnder.text.slice(0, 300),
    );
    const sessionAfter = (await store(`/carts/${underCart}?fields=*payment_collection.payment_sessions`)).json.cart
      .payment_collection.payment_sessions[0];
    check(
      'the underpaid session stays requires_more, never authorized or captured',
      sessionAfter.status === 'requires_more' && !sessionAfter.authorized_at,
      sessionAfter.status,
    );

    // 3. Forged and replayed webhooks change nothing: a "finished" event for the underpaid session signed with a
    //    wrong secret, the same signed with the right secret but 10 minutes old, and our own finished delivery of
    //    the paid cart sent again (same delivery id, fresh signature) by our redeliver route.
    const forgedBody = JSON.stringify({
      id: `evt_forged_${randomBytes(4).toString('hex')}`,
      event: 'payment.updated',
      created_at: new Date().toISOString(),
      source: 'test',
      merchant: { user_id: null },
      payment: {
        ...under,
        payment_status: 'finished',
        status_detail: 'none',
        sequence: 999,
        order_id: underSession.id,
      },
    });
    const hook = (ts: number, secret: string, delivery: string) =>
      http(`${medusa}/hooks/payment/crypto_crypto`, {
        body: forgedBody,
        headers: {
          'x-service-event': 'payment.updated',
          'x-service-delivery': delivery,
          'x-service-timestamp': String(ts),
          'x-service-signature': signature(secret, ts, forgedBody),
        },
      });
    const now = Math.floor(Date.now() / 1000);
    await hook(now, 'whsec_not_the_merchants', 'dlv_forged1');
    await hook(now - 600, merchant.webhook_secret, 'dlv_forged2');
    const paidDelivery = (await api(`/webhook-deliveries?payment_id=${paidId}&status=succeeded`)).json.data;
    const lastPaid = (paidDelivery.deliveries ?? paidDelivery)[0];
    const replayLine = `ignored: replayed ${lastPaid.delivery_id ?? lastPaid.id}`;
    const redeliver = await http(
      `${service.url}/api/v1/webhook-deliveries/${lastPaid.delivery_id ?? lastPaid.id}/redeliver`,
      {
        method: 'POST',
        headers: { 'x-api-key': merchant.secret_key },
      },
    );
    await until(
      'the three webhooks handled',
      async () =>
        medusaLog.includes('refused: bad_signature') &&
        medusaLog.includes('refused: stale_timestamp') &&
        medusaLog.includes(replayLine)
          ? true
          : undefined,
      30_000,
    ).catch(() => undefined);
    await sleep(2000);
    check('a webhook with a wrong signature is refused', medusaLog.includes('refused: bad_signature'));
    check('a signed webhook 10 minutes old is refused', medusaLog.includes('refused: stale_timestamp'));
    check(
      'our own delivery sent again is ignored',
      redeliver.status === 202 && medusaLog.includes(replayLine),
      redeliver.text,
    );
    check(
      'after them the underpaid cart is still no order',
      !(await store(`/carts/${underCart}?fields=+completed_at`)).json.cart.completed_at,
    );
    const ordersAfter = (await adm('/orders?fields=id&limit=50')).json.orders as Json[];
    check('still exactly one order', ordersAfter.length === 1, String(ordersAfter.length));

    // 4. A currency the service cannot price is refused at checkout, with the reason.
    const iskCart = await newCart(isk.id, 'cy@example.com');
    const refused = await session(iskCart, 'cy@example.com');
    check(
      'a currency the service cannot price is refused with a clear message',
      refused.status >= 400 && /cannot be priced in ISK/.test(refused.text),
      refused.text.slice(0, 300),
    );

    // 5. A refund from Medusa's admin API reaches the service.
    const paymentRow = (paidOrder.payment_collections as Json[])
      .flatMap((pc) => pc.payments as Json[])
      .find((p) => p.data?.payment_id === paidId);
    const partial = await adm(`/payments/${paymentRow.id}/refund`, { amount: 5 });
    check(
      'a partial refund is refused with the reason',
      partial.status >= 400 && /partial refund/.test(partial.text),
      partial.text.slice(0, 300),
    );
    const refund = await adm(`/payments/${paymentRow.id}/refund`, { amount: 20 });
    check('Medusa accepts the full refund', refund.status === 200, refund.text.slice(0, 300));
    const refunds = (await api(`/payments/${paidId}/refunds`)).json.data;
    const list = refunds.refunds ?? refunds;
    check(
      'the refund is on the service',
      Array.isArray(list) && list.length === 1,
      JSON.stringify(refunds).slice(0, 300),
    );
    say('done');
  } catch (e) {
    fail(e);
  } finally {
    if (tally.failed > 0)
      process.stdout.write(`--- Medusa log (tail)\n${medusaLog.slice(-6000)}\n--- service\n${serviceErr()}\n`);
    for (const c of children.reverse()) c.kill('SIGTERM');
    await sleep(500);
    for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch(fail).finally(finish);
