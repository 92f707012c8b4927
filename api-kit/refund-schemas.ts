import { z } from 'zod';
import { CLAIM_HOURS, type ClaimRequest, newClaimToken } from '../core/refunds/claim-link.js';

/*
 * What the refund routes take, shared by the merchant API (which describes them in its OpenAPI document) and the
 * dashboard API (owners doing the same from the payment page): one schema per request, so both refuse alike.
 */

/** How a claim link is asked for, on a new refund (`claim_link`) and for a new link. */
export const claimLinkRequestSchema = z
  .strictObject({
    expires_in_hours: z
      .number()
      .int()
      .min(CLAIM_HOURS.min)
      .max(CLAIM_HOURS.max)
      .optional()
      .meta({ description: `How long the link works, in hours (default ${CLAIM_HOURS.default}: 7 days)` }),
    notify_customer: z
      .boolean()
      .optional()
      .meta({ description: "Mail the link to the payment's customer e-mail, in their language (default true)" }),
  })
  .meta({ description: 'Ask the customer for the refund address through a single-use link to a hosted page' });

/** The parsed request as core takes it: a fresh token, the link's lifetime, and the PUBLIC_URL it is built from. */
export function claimRequest(o: z.output<typeof claimLinkRequestSchema>, publicUrl: string): ClaimRequest {
  return {
    token: newClaimToken(),
    hours: o.expires_in_hours ?? CLAIM_HOURS.default,
    notify: o.notify_customer ?? true,
    publicUrl,
  };
}

export const createRefundSchema = z.strictObject({
  amount_units: z
    .string()
    .regex(/^[0-9]{1,78}$/, "Must be a whole number of the paid asset's base units, as decimal digits")
    .optional()
    .meta({
      description:
        "Exact amount in the paid asset's base units (satoshi, wei, token units); default: the excess of an overpaid payment, else all that was received and is not yet refunded",
      examples: ['1500'],
    }),
  address: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: "The customer's address on the payment's network; the refund is `ready` at once" }),
  reason: z.string().max(500).optional(),
  claim_link: claimLinkRequestSchema.optional(),
});

export const confirmAddressSchema = z.strictObject({
  address: z
    .string()
    .min(1)
    .max(200)
    .meta({
      description:
        "The address to confirm: the customer's as you saw it (it must match), or yours when the customer gave none",
      examples: ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
    }),
});

export const moneroProofSchema = z.strictObject({
  txid: z.string().min(1).max(200).meta({ description: 'The transaction id (64 hex digits)' }),
  tx_key: z.string().min(1).max(2000).meta({
    description:
      "The transaction's secret key as the wallet gives it (`get_tx_key`; the main key then any additional keys, 64 hex digits each)",
  }),
});

export const refundPsbtQuerySchema = z.strictObject({
  master_fingerprint: z
    .string()
    .optional()
    .meta({
      description:
        "The wallet's master key fingerprint (8 hex digits, as Sparrow, Electrum, Coldcard or Trezor Suite show it): the key origins then carry it with full paths from the master, which hardware signers need",
      examples: ['d34db33f'],
    }),
});
