/**
 * The `payment.updated` webhook as an OpenAPI 3.1 `webhooks` entry: what the service POSTs to the merchant's URL
 * (API §6, README "Webhooks"). The payload schema is `PaymentUpdatedEvent` in components.
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

/**
 * The `refund.updated` webhook (issue 30): the same headers, signature, deduplication and retries as
 * `payment.updated`, only `X-Service-Event` and the payload (`RefundUpdatedEvent` in components) differ.
 */
export const refundUpdatedWebhook = {
  post: {
    operationId: 'refundUpdated',
    summary: 'A refund changed',
    description: [
      'Sent on every change of a refund: created, its address confirmed, seen on chain (`sent`, with the `txid`),',
      '`confirmed`, or `cancelled`. Drop an event whose `refund.sequence` is not above the last you applied.',
      '',
      'Signed, deduplicated and retried exactly as `payment.updated` (see there). When confirmed refunds cover what',
      "a payment received, the payment's own `payment.updated` follows with `payment_status` `refunded`.",
    ].join('\n'),
    tags: ['Webhooks'],
    security: [],
    parameters: paymentUpdatedWebhook.post.parameters.map((p) =>
      p.name === 'X-Service-Event' ? { ...p, schema: { type: 'string', const: 'refund.updated' } } : p,
    ),
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/RefundUpdatedEvent' },
          example: {
            id: '0f6a3c1e-8d2b-4c55-9e7a-2b1d4f6a8c90',
            event: 'refund.updated',
            created_at: '2026-11-26T09:30:00.000Z',
            source: 'crypto-payments-service',
            merchant: { user_id: 'mer_7Qm2xV' },
            refund: {
              refund_id: 'rfd_4n8Kq2Wm',
              payment_id: 'pay_8fJ2kLq0Zx',
              refund_status: 'sent',
              sequence: 3,
              amount: 0.000015,
              amount_units: '1500',
              currency: 'BTC',
              network: 'btc',
              address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
              address_source: 'merchant',
              address_confirmed: true,
              claim_link_expires_at: null,
              reason: 'Returned item',
              txid: '9c3b0e7f2a4d6c8e1b3f5a7d9c2e4b6a8f0d1c3e5a7b9d2f4c6e8a0b2d4f6a8c',
              explorer_url: null,
              other_transfers: [],
              created_at: '2026-11-26T09:00:00.000Z',
              updated_at: '2026-11-26T09:30:00.000Z',
              sent_at: '2026-11-26T09:30:00.000Z',
              confirmed_at: null,
              cancelled_at: null,
            },
          },
        },
      },
    },
    responses: paymentUpdatedWebhook.post.responses,
  },
};
