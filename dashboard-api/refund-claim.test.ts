import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { setTwoFactorRequired } from '../core/users/two-factor.js';
import { CUSTOMER, refundWorld } from './testing/refund-world.js';

/* The owner's side of refund claim links (issue 30 item 2): the link made in the dashboard, the customer's address
 * confirmed by an owner only, with a fresh two-factor code where the merchant requires one, and audited. */

const w = refundWorld();
const { clock, paidPayment, auditOf } = w;

const rowOf = (id: string) =>
  w.t.service.deps.db.selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('dashboard refund claim links', () => {
  it('an owner makes the link, the customer answers, only an owner with a fresh code confirms, audited', async () => {
    const id = await paidPayment();
    const created = await w.owner.call(`${w.base}/payments/${id}/refunds`, {
      body: { amount_units: '5000', claim_link: { notify_customer: false } },
    });
    expect(created.status, created.text).toBe(201);
    const refundId = created.json.data.refund_id as string;
    const url = created.json.data.claim_link.url as string;
    expect(url.startsWith(`${w.t.url}/refund/`)).toBe(true);
    const [made] = await auditOf('refund.create');
    expect(JSON.stringify(made)).not.toContain(url.split('/').pop());

    const taken = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `address=${CUSTOMER}`,
    });
    expect(taken.status).toBe(200);
    const read = await w.owner.call(`${w.base}/payments/${id}`);
    const listed = read.json.data.refunds.find((r: { refund_id: string }) => r.refund_id === refundId);
    expect(listed).toMatchObject({ address: CUSTOMER, address_confirmed: false, send: null });

    const asViewer = await w.viewer.call(`${w.base}/refunds/${refundId}/address`, { body: { address: CUSTOMER } });
    expect(asViewer.status).toBe(403);

    const setup = await w.owner.call('/account/two-factor/setup', { method: 'POST' });
    const totp = new TOTP({ secret: Secret.fromBase32(setup.json.data.secret), digits: 6, period: 30 });
    expect(
      (await w.owner.call('/account/two-factor', { body: { code: totp.generate({ timestamp: clock.now() }) } })).status,
    ).toBe(201);
    await setTwoFactorRequired(w.t.service.deps.db, w.t.merchant.merchant_id, true, clock.now());
    const before = await rowOf(refundId);
    const none = await w.owner.call(`${w.base}/refunds/${refundId}/address`, { body: { address: CUSTOMER } });
    expect(none.status).toBe(422);
    expect(Object.keys(none.json.errors)).toEqual(['code']);
    expect(await rowOf(refundId)).toEqual(before);
    expect(await auditOf('refund.confirm_address')).toEqual([]);

    clock.advance(30_000);
    const confirmed = await w.owner.call(`${w.base}/refunds/${refundId}/address`, {
      body: { address: CUSTOMER, code: totp.generate({ timestamp: clock.now() }) },
    });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.json.data).toMatchObject({ refund_status: 'ready', address_confirmed: true });
    expect(confirmed.json.data.send.uri).toContain(CUSTOMER);
    const [entry] = await auditOf('refund.confirm_address');
    expect(entry.target).toBe(refundId);
    expect(JSON.stringify(entry)).toContain(CUSTOMER);
  });
});
