import type { Hono } from 'hono';
import { ok } from '../../../api-kit/envelope.js';
import { idParam } from '../../../api-kit/path-params.js';
import { hostedPaymentUrl } from '../../../api-kit/payment-views.js';
import { chainKey } from '../../../core/chains/types.js';
import { notFound } from '../../../core/errors.js';
import { forwarderOf } from '../../../core/forwarders/store.js';
import { depositsOf } from '../../../core/payments/deposits.js';
import { paymentEventsOf } from '../../../core/payments/events.js';
import type { Payment } from '../../../core/payments/payment.js';
import { findMerchantPayment } from '../../../core/payments/store.js';
import { qrSvgDataUrl } from '../../../core/qr/encode.js';
import { refundsOfPayment } from '../../../core/refunds/store.js';
import { refundViews } from '../../../core/refunds/views.js';
import { listDeliveries } from '../../../core/webhooks/deliveries.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { dashDeliveryView, depositViews, forwarderView, paymentDetailView, timelineView } from '../../views.js';

/**
 * GET /merchants/{id}/payments/{payment_id}: the payment, its timeline (every status change with its sequence and
 * time), its deposits, its webhook deliveries with every attempt, its forwarder's sweep when it was paid to one, and
 * its refunds (partial ones included, each with `send_qr`: the QR code of its send URI).
 * Another merchant's payment is 404.
 */
export function registerGetPayment(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/payments/:payment_id', async (c) => {
    const merchant = c.get('merchant');
    const p = await findMerchantPayment(x.deps.db, merchant.id, idParam(c, 'payment_id', 'Payment'));
    if (!p) throw notFound('Payment');
    return ok(c, await paymentPageView(x, p));
  });
}

/** Everything the payment's own page shows. */
async function paymentPageView(x: DashCtx, p: Payment) {
  const [events, deposits, deliveries, forwarder, refunds] = await Promise.all([
    paymentEventsOf(x.deps.db, p.id),
    depositsOf(x.deps.db, p.id),
    listDeliveries(x.deps.db, p.merchant_id, { paymentId: p.id, limit: 100 }),
    forwarderOf(x.deps.db, p.id),
    refundsOfPayment(x.deps.db, p.id),
  ]);
  return {
    payment: paymentDetailView(p),
    hosted_payment_url: hostedPaymentUrl(p, x.deps.settings.publicUrl, x.deps.settings.pageSecret),
    timeline: timelineView(p, events),
    deposits: await depositViews(x.deps, p, deposits),
    deliveries: deliveries.deliveries.map((d) => dashDeliveryView(d, d.attempt_log)),
    forwarder: forwarder
      ? forwarderView(forwarder, deposits, x.deps.chains.get(chainKey(p.mode, p.network))?.explorerUrl)
      : null,
    // The send URI as a QR for the owner's phone wallet: the same text, so the same digits as the URI shown.
    refunds: (await refundViews(x.deps.db, x.deps.chains, x.deps.catalog, refunds)).map((v) => ({
      ...v,
      send_qr: v.send ? qrSvgDataUrl(v.send.uri) : null,
    })),
  };
}
export type PaymentDetail = Awaited<ReturnType<typeof paymentPageView>>;
