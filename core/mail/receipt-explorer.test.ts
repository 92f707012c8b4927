import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../server/testing/harness.js';
import { until } from '../../server/testing/until.js';
import { createMerchant } from '../merchants/merchants.js';
import { insertDeposit } from '../payments/deposits.js';
import { insertPaymentEvent } from '../payments/events.js';
import { findPayment, insertPayment } from '../payments/store.js';
import { startRelay, type TestRelay } from './testing/relay.js';

/*
 * A receipt names each transaction with a link to the chain's explorer where the operator configured one (issue 29,
 * item 5). The payment is a live one written to the store with its deposit; its change is recorded the way every
 * writer records one (insertPaymentEvent, in a transaction), and the receipt travels through a real relay.
 */

let t: TestService;
let relay: TestRelay;
const chains = join(tmpdir(), `chains-receipt-${process.pid}.json`);

beforeAll(async () => {
  relay = await startRelay();
  writeFileSync(
    chains,
    JSON.stringify({
      networks: {
        eth: { rpcUrl: 'http://127.0.0.1:1', chainId: 1, confirmations: 2, explorerUrl: 'https://etherscan.example/' },
      },
    }),
  );
  t = await startTestService({
    start: true,
    env: {
      SMTP_URL: relay.url,
      MAIL_FROM: 'Payments <payments@shop.example>',
      MAIL_POLL_MS: '50',
      CHAINS_CONFIG: chains,
    },
    overrides: { mailTls: { ca: relay.ca } },
  });
});
afterAll(async () => {
  await t?.close();
  await relay?.close();
  rmSync(chains, { force: true });
});

describe('receipts', () => {
  it('link each transaction to the explorer configured for its live chain', async () => {
    const db = t.service.deps.db;
    const live = await createMerchant(db, t.service.deps.clock, { name: 'Live shop', mode: 'live' });
    const c = await t.api('/api/v1/payments', { body: { amount: 25, currency: 'btc', email: 'x@example.com' } });
    const template = await findPayment(db, c.json.data.payment.payment_id);
    if (!template) throw new Error('no payment to copy');
    const now = Date.now();
    const p = {
      ...template,
      id: 'pay_liveexplorer',
      merchant_id: live.merchant_id,
      mode: 'live' as const,
      pay_currency: 'ETH',
      network: 'eth',
      decimals: 18,
      precision: 18,
      pay_amount_units: '1500000000000000000',
      actually_paid_units: '1500000000000000000',
      customer_email: 'live-buyer@example.com',
      status: 'finished' as const,
      confirmed_at: now,
    };
    await insertPayment(db, p);
    const txid = `0x${'ab'.repeat(32)}`;
    await insertDeposit(db, {
      id: 'dep_liveexplorer',
      payment_id: p.id,
      network: 'live:eth',
      txid,
      log_index: -1,
      asset: 'ETH',
      amount_units: '1500000000000000000',
      block_height: 10,
      block_hash: '0x01',
      first_seen_at: now,
      late: 0,
      removed: 0,
      updated_at: now,
    });
    await db.transaction().execute((trx) => insertPaymentEvent(trx, p, now));
    t.service.mail?.wake();
    const [m] = await until(
      async () => relay.accepted().filter((x) => JSON.stringify(x.parsed.to).includes('live-buyer@example.com')),
      (ms) => ms.length === 1,
    );
    expect(m?.parsed.subject).toBe('Your payment to Live shop is complete');
    expect(m?.parsed.text).toContain(`Amount: 1.5 ETH`);
    expect(m?.parsed.text).toContain(`https://etherscan.example/tx/${txid}`);
    expect(m?.parsed.html).toContain(`<a href="https://etherscan.example/tx/${txid}">${txid}</a>`);
  });
});
