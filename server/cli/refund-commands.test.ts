import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../testing/harness.js';

const run = promisify(execFile);
let t: TestService;

/** The real CLI in its own process, against the running service's store. */
async function admin(args: string[]) {
  try {
    const r = await run('npx', ['tsx', 'server/admin-cli.ts', ...args], {
      env: { ...process.env, DATABASE_URL: t.service.config.DATABASE_URL },
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

describe('admin CLI: refund tx', () => {
  it('prints the exact native transfer of an ETH refund (to, value in wei, empty data), and refuses one without an address', async () => {
    const p = await t.api('/api/v1/payments', { body: { amount: 30, currency: 'eth', email: 'e@example.com' } });
    const { pay_address: address, pay_amount: amount } = p.json.data.blockchain;
    expect((await t.api('/api/v1/sandbox/transfers', { body: { currency: 'eth', address, amount } })).status).toBe(201);
    expect((await t.api('/api/v1/sandbox/blocks', { body: { network: 'eth', count: 2 } })).status).toBe(200);
    const customer = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
    const id = p.json.data.payment.payment_id;
    const ready = await t.api(`/api/v1/payments/${id}/refunds`, {
      body: { amount_units: '12345678901234', address: customer },
    });
    expect(ready.status, ready.text).toBe(201);
    const awaiting = await t.api(`/api/v1/payments/${id}/refunds`, { body: { amount_units: '1' } });

    const text = await admin(['refund', 'tx', '--refund', ready.json.data.refund_id]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.split('\n').filter(Boolean)).toEqual([
      `uri:   ethereum:${customer}@1?value=12345678901234`,
      'chain: 1',
      `to:    ${customer}`,
      'value: 12345678901234',
      'data:  0x',
    ]);
    const json = JSON.parse((await admin(['refund', 'tx', '--refund', ready.json.data.refund_id, '--json'])).stdout);
    expect(json.evm_transaction).toEqual({ chain_id: 1, to: customer, value: '12345678901234', data: '0x' });

    const refused = await admin(['refund', 'tx', '--refund', awaiting.json.data.refund_id]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('without a confirmed address');
  }, 180_000);
});
