/**
 * The `payment.updated` webhook as an OpenAPI 3.1 `webhooks` entry: what the service POSTs to the merchant's URL
 * (spec section 6, README "Webhooks"). The payload schema is `PaymentUpdatedEvent` in components.
 */
export const paymentUpdatedWebhook = {
  post: {
    operationId: 'paymentUpdated',
    summary: 'A payment changed',
    description: [
      "Sent on every change of a payment's `payment_status`, `actually_paid` or `status_detail`.",
      '',
      '**Signature rule**: signed text = `X-Service-Timestamp` + "." + the raw request body (the exact bytes received);',
      'key = your webhook secret (`whsec_...`); `X-Service-Signature` = `sha256=` + lower-case hex HMAC-SHA256.',
      'Compare in constant time, refuse timestamps far from now (for example 300 s), and deduplicate on',
      '`X-Service-Delivery`. Drop an event whose `payment.sequence` is not above the last you applied.',
      '',
      'Any 2xx answer is success. Otherwise the same delivery is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,',
      '14 h, 20 h and 24 h (each ±20%), honouring `Retry-After` up to 1 h; `410 Gone` disables the endpoint.',
    ].join('\n'),
    tags: ['Webhooks'],
    security: [],
    parameters: [
      {
        name: 'X-Service-Event',
        in: 'header',
        required: true,
        schema: { type: 'string', const: 'payment.updated' },
      },
      {
        name: 'X-Service-Delivery',
        in: 'header',
        required: true,
        description: 'Delivery id: the same on every retry and redelivery; deduplicate on it',
        schema: { type: 'string' },
        example: 'dlv_3kD9sQ1w',
      },
      {
        name: 'X-Service-Timestamp',
        in: 'header',
        required: true,
        description: 'Unix seconds of this attempt (fresh on every attempt)',
        schema: { type: 'string', pattern: '^[0-9]+$' },
        example: '1764072000',
      },
      {
        name: 'X-Service-Signature',
        in: 'header',
        required: true,
        description: '`sha256=` + hex HMAC-SHA256(webhook secret, timestamp + "." + raw body)',
        schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
      },
    ],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/PaymentUpdatedEvent' },
          example: {
            id: '5b0c7a9e-2f0e-4d7a-9a51-0c3e8f1d2b44',
            event: 'payment.updated',
            created_at: '2026-11-25T12:10:00.000Z',
            source: 'crypto-payments-service',
            merchant: { user_id: 'mer_7Qm2xV' },
            payment: {
              payment_id: 'pay_8fJ2kLq0Zx',
              invoice_id: 'inv_1Vb6Tq',
              payment_status: 'finished',
              status_detail: 'none',
              sequence: 3,
              price_amount: 100,
              price_currency: 'USD',
              pay_amount: 0.00153847,
              pay_currency: 'BTC',
              actually_paid: 0.00153847,
              pay_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
              extra_id: null,
              network: 'btc',
              order_id: '1001',
              confirmed_at: '2026-11-25T12:10:00.000Z',
              updated_at: '2026-11-25T12:10:00.000Z',
              purchase_id: 'pur_4Hx8Lw',
              customer: { name: 'Ann', email: 'ann@example.com' },
            },
          },
        },
      },
    },
    responses: {
      '2XX': { description: 'Received: the delivery is done' },
      '410': { description: 'Gone: the endpoint is disabled until re-enabled; its deliveries are held' },
      default: { description: 'Any other answer (or none within 10 s): retried on the schedule above' },
    },
  },
};
