import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { setTwoFactorRequired } from '../core/users/two-factor.js';
import { CUSTOMER, refundWorld } from './testing/refund-world.js';

const w = refundWorld();
const { clock, paidPayment, auditOf } = w;

const refundsOf = (paymentId: string) =>
  w.t.service.deps.db.selectFrom('refunds').selectAll().where('payment_id', '=', paymentId).execute();

describe('dashboard refunds', () => {
  it('an owner creates and cancels a refund, each with its audit entry; the payment page lists it; a viewer cannot', async () => {
    const id = await paidPayment();
    const denied = await w.viewer.call(`${w.base}/payments/${id}/refunds`, { body: { amount_units: '100' } });
    expect(denied.status).toBe(403);
    expect(await refundsOf(id)).toEqual([]);

    const r = await w.owner.call(`${w.base}/payments/${id}/refunds`, {
      body: { amount_units: '100', address: CUSTOMER },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.json.data).toMatchObject({ refund_status: 'ready', amount_units: '100', address: CUSTOMER });
    const refundId = r.json.data.refund_id;
    expect((await auditOf('refund.create'))[0]).toMatchObject({
      action: 'refund.create',
      target: refundId,
      actor: 'owner@shop.example',
      details: { payment_id: id, amount_units: '100', currency: 'BTC', address: CUSTOMER },
    });
    const page = (await w.viewer.call(`${w.base}/payments/${id}`)).json.data;
    expect(page.refunds.map((x: { refund_id: string }) => x.refund_id)).toEqual([refundId]);
    expect(page.payment.decimals).toBe(8);

    expect((await w.viewer.call(`${w.base}/refunds/${refundId}/cancel`, { method: 'POST' })).status).toBe(403);
    const c = await w.owner.call(`${w.base}/refunds/${refundId}/cancel`, { method: 'POST' });
    expect(c.status, c.text).toBe(200);
    expect(c.json.data.refund_status).toBe('cancelled');
    expect((await auditOf('refund.cancel'))[0]).toMatchObject({ target: refundId, details: { payment_id: id } });
  });

  it('refused input writes neither a refund nor an audit entry', async () => {
    const id = await paidPayment();
    const before = (await auditOf('refund')).length;
    const bad = await w.owner.call(`${w.base}/payments/${id}/refunds`, {
      body: { address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045' },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json.errors)).toEqual(['address']);
    expect(await refundsOf(id)).toEqual([]);
    expect((await auditOf('refund')).length).toBe(before);
  });

  it('where the merchant requires two-factor, a refund takes a fresh code: none or a replayed one is refused', async () => {
    const id = await paidPayment();
    const setup = await w.owner.call('/account/two-factor/setup', { method: 'POST' });
    const totp = new TOTP({
      secret: Secret.fromBase32(setup.json.data.secret),
      digits: 6,
      period: 30,
      algorithm: 'SHA1',
    });
    const enrolCode = totp.generate({ timestamp: clock.now() });
    expect((await w.owner.call('/account/two-factor', { body: { code: enrolCode } })).status).toBe(201);
    await setTwoFactorRequired(w.t.service.deps.db, w.t.merchant.merchant_id, true, clock.now());

    const none = await w.owner.call(`${w.base}/payments/${id}/refunds`, { body: { address: CUSTOMER } });
    expect(none.status).toBe(422);
    expect(Object.keys(none.json.errors)).toEqual(['code']);
    const replayed = await w.owner.call(`${w.base}/payments/${id}/refunds`, {
      body: { address: CUSTOMER, code: enrolCode },
    });
    expect(replayed.status).toBe(422);
    expect(await refundsOf(id)).toEqual([]);

    clock.advance(30_000);
    const fresh = await w.owner.call(`${w.base}/payments/${id}/refunds`, {
      body: { address: CUSTOMER, code: totp.generate({ timestamp: clock.now() }) },
    });
    expect(fresh.status, fresh.text).toBe(201);
    expect(await refundsOf(id)).toHaveLength(1);
  });
});
