/**
 * A shop's server creating a payment and reconciling it with a typed client: the types are generated from the
 * service's OpenAPI document (examples/api-types.ts, `npm run openapi:types`), the requests made by openapi-fetch.
 * A mistyped field or path is a compile error, not a 422 in production.
 *
 *   SERVICE_URL=http://127.0.0.1:8787 API_KEY=sk_test_... npx tsx examples/create-payment.ts
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './api-types.js';

export type MerchantClient = ReturnType<typeof merchantClient>;
export type DirectPayment = components['schemas']['DirectPayment'];
export type PaymentStatus = components['schemas']['PaymentStatus'];

export function merchantClient(serviceUrl: string, apiKey: string, fetchImpl: typeof fetch = fetch) {
  return createClient<paths>({ baseUrl: `${serviceUrl}/api/v1`, headers: { 'X-API-Key': apiKey }, fetch: fetchImpl });
}

/**
 * Creates the payment of one order. The order id is the Idempotency-Key, so a retry after a timeout returns the same
 * payment instead of a second one. Shows the customer `pay_amount` and `pay_address` exactly as returned.
 */
export async function payOrder(
  client: MerchantClient,
  order: { id: string; usd: number; currency: string; email: string },
): Promise<DirectPayment> {
  const { data, error, response } = await client.POST('/payments', {
    params: { header: { 'Idempotency-Key': `order-${order.id}` } },
    body: { amount: order.usd, currency: order.currency, email: order.email, order_id: order.id },
  });
  if (error) throw new Error(`payment for order ${order.id} refused (${response.status}): ${error.message}`);
  return data.data;
}

/** Reads a payment's status (reconciliation; fulfil on the signed webhook). */
export async function paymentStatus(client: MerchantClient, paymentId: string): Promise<PaymentStatus> {
  const { data, error } = await client.GET('/payments/{payment_id}', { params: { path: { payment_id: paymentId } } });
  if (error) throw new Error(`payment ${paymentId}: ${error.message}`);
  return data.data;
}

if (process.argv[1]?.endsWith('create-payment.ts')) {
  const client = merchantClient(process.env.SERVICE_URL ?? 'http://127.0.0.1:8787', process.env.API_KEY ?? '');
  const p = await payOrder(client, { id: '1001', usd: 25, currency: 'btc', email: 'ann@example.com' });
  process.stdout.write(
    `Pay ${p.blockchain.pay_amount} ${p.blockchain.pay_currency} to ${p.blockchain.pay_address} (${p.payment.payment_id})\n`,
  );
  const s = await paymentStatus(client, p.payment.payment_id);
  process.stdout.write(`Status: ${s.payment_status}\n`);
}
