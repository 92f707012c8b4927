import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HDKey } from '@scure/bip32';
import { setXpub } from '../core/addresses/xpubs.js';
import { BitcoinRpc } from '../core/chains/bitcoin/rpc.js';
import { type Litecoind, startLitecoind } from '../core/chains/bitcoin/testing/litecoind.js';
import { startRatesServer } from '../core/chains/evm/testing/rates-server.js';
import { addUser } from '../core/users/accounts.js';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { expectAccessible, OWNER, PASSWORD, signIn } from './dashboard-fixtures.js';
import { test as base, expect, shot } from './fixtures.js';

/**
 * The owner's refund panel for a live LTC payment on a real `litecoind -regtest`: beside the BIP21 QR, "Make PSBT"
 * gives the unsigned PSBT, downloaded as a file; a node wallet holding the merchant's keys signs that very file, it
 * is broadcast, and the page shows the refund sent then confirmed by the watcher.
 */

const CONFIRMATIONS = 2;
const TEST_VERSIONS = { private: 0x04358394, public: 0x043587cf };

interface PsbtWorld {
  node: Litecoind;
  service: TestService;
  master: HDKey;
  paymentId: string;
}

const test = base.extend<object, { pw: PsbtWorld }>({
  pw: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring
    async ({}, use) => {
      const node = await startLitecoind();
      const rates = await startRatesServer({ litecoin: 100 });
      const configFile = join(tmpdir(), `chains-psbt-e2e-${randomBytes(4).toString('hex')}.json`);
      const ltc = {
        rpcUrl: node.url,
        chain: 'regtest',
        confirmations: CONFIRMATIONS,
        pollIntervalMs: 100,
        timeoutMs: 5000,
        rpcUser: node.user,
        rpcPassword: node.password,
      };
      writeFileSync(configFile, JSON.stringify({ networks: { ltc } }));
      const service = await startTestService({
        mode: 'live',
        start: true,
        env: {
          CHAINS_CONFIG: configFile,
          RATES_BASE_URL: rates.url,
          RATES_STALE_SECONDS: '86400',
          LOG_LEVEL: 'silent',
        },
      });
      const deps = service.service.deps;
      const merchantId = service.merchant.merchant_id;
      await addUser(deps, { merchantId, email: OWNER, role: 'owner', password: PASSWORD });
      const master = HDKey.fromMasterSeed(randomBytes(32), TEST_VERSIONS);
      const account = master.derive("m/84'/1'/0'").publicExtendedKey;
      if (!(await setXpub(deps.db, deps.clock, merchantId, 'ltc', account, 'regtest')).ok) throw new Error('xpub');
      let created: { payment: { payment_id: string }; blockchain: { pay_address: string } } | undefined;
      for (let i = 0; !created; i++) {
        const r = await service.api('/api/v1/payments', {
          body: { amount: 30, currency: 'LTC', email: 'refund@buyer.example' },
        });
        if (r.status === 201) created = r.json.data;
        else if (i > 100) throw new Error(`no LTC payment: ${r.status} ${r.text}`);
        else await new Promise((res) => setTimeout(res, 100));
      }
      await node.send(created.blockchain.pay_address, '0.3');
      await node.mine(CONFIRMATIONS);
      const id = created.payment.payment_id;
      for (let i = 0; (await service.api(`/api/v1/payments/${id}`)).json.data.payment_status !== 'finished'; i++) {
        if (i > 200) throw new Error(`payment ${id} never finished`);
        await new Promise((r) => setTimeout(r, 100));
      }
      await use({ node, service, master, paymentId: id });
      await service.close();
      await rates.close();
      await node.stop();
      rmSync(configFile, { force: true });
    },
    { scope: 'worker', timeout: 180_000 },
  ],
});

test.describe('dashboard: a Bitcoin-family refund sent by PSBT (live LTC on a real litecoind)', () => {
  test.describe.configure({ timeout: 180_000 });
  test('the downloaded PSBT, signed by a wallet holding the keys, pays the customer exactly and shows confirmed', async ({
    page,
    pw,
  }, testInfo) => {
    const customer = await pw.node.newAddress();
    const merchantId = pw.service.merchant.merchant_id;
    await page.goto(`${pw.service.url}/dashboard/m/${merchantId}/payments/${pw.paymentId}`);
    await signIn(page);
    await expect(page.locator('.headline [data-status]').first()).toHaveText(/finished/);
    const form = page.getByRole('form', { name: 'Refund this payment' });
    await form.getByLabel(/^Amount in/).fill('0.1');
    await form.getByLabel('Customer’s address').fill(customer);
    await form.getByRole('button', { name: 'Create refund' }).click();
    const row = page.locator('tr[data-refund]').first();
    await expect(row.locator('[data-refund-status]')).toHaveText('ready to send');
    const refundId = (await row.getAttribute('data-refund')) ?? '';
    const panel = page.locator(`[data-refund-send="${refundId}"]`);
    await expect(panel.locator('[data-field="refund-uri"]')).toHaveText(`litecoin:${customer}?amount=0.1`);

    await panel.getByRole('button', { name: 'Make PSBT' }).click();
    await expect(panel.locator('[data-field="refund-psbt-ready"]')).toContainText(/fee 0\.0000[0-9]+ LTC/);
    await expectAccessible(page, 'a ready LTC refund with its PSBT');
    await shot(page, testInfo, 'dash-refund-psbt-ready');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('link', { name: 'Download PSBT' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`refund-${refundId}.psbt`);
    const file = readFileSync((await download.path()) ?? '');
    // A binary PSBT: the magic bytes "psbt" 0xff, as wallets open it.
    expect([...file.subarray(0, 5)]).toEqual([0x70, 0x73, 0x62, 0x74, 0xff]);

    // The merchant's wallet (a node wallet holding the test keys) signs the downloaded file and broadcasts it.
    await pw.node.rpc.call('createwallet', ['merchant', false, true]);
    const signer = new BitcoinRpc({
      url: `${pw.node.url}/wallet/merchant`,
      auth: { user: pw.node.user, password: pw.node.password },
      label: 'merchant wallet',
    });
    const requests = [];
    for (const branch of [0, 1]) {
      const desc = `wpkh(${pw.master.privateExtendedKey}/84'/1'/0'/${branch}/*)`;
      const info = await pw.node.rpc.call<{ checksum: string }>('getdescriptorinfo', [desc]);
      requests.push({ desc: `${desc}#${info.checksum}`, range: [0, 10], timestamp: 'now', watchonly: false });
    }
    await signer.call('importmulti', [requests]);
    const processed = await signer.call<{ psbt: string; complete: boolean }>('walletprocesspsbt', [
      file.toString('base64'),
    ]);
    expect(processed.complete).toBe(true);
    const final = await pw.node.rpc.call<{ hex: string }>('finalizepsbt', [processed.psbt]);
    const txid = await pw.node.rpc.call<string>('sendrawtransaction', [final.hex]);

    // The page asks again by itself: sent, then confirmed.
    await expect(row.locator('[data-refund-status]')).toHaveText(/^sent \(seen on chain\)/, { timeout: 20_000 });
    await expect(row).toContainText(txid);
    await pw.node.mine(CONFIRMATIONS);
    await expect(row.locator('[data-refund-status]')).toHaveText(/^confirmed/, { timeout: 20_000 });
    const tx = await pw.node.rpc.call<{ vout: { value: string; scriptPubKey: { addresses?: string[] } }[] }>(
      'getrawtransaction',
      [txid, true],
    );
    expect(tx.vout.filter((o) => o.scriptPubKey.addresses?.includes(customer)).map((o) => o.value)).toEqual([
      '0.10000000',
    ]);
  });
});
