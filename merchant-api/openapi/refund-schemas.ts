import { z } from 'zod';
import { amountSchema, timestampSchema } from '../../api-kit/payment-schemas.js';
import type { Decimal } from '../../core/money/decimal.js';
import { refundStatuses } from '../../core/refunds/refund.js';

/**
 * The shapes of refunds (issue 30) on /api/v1 and in the `refund.updated` webhook. The view they describe is one
 * function (core/refunds/refund.ts `refundView`); the routes type their answers with these, so `tsc` catches drift.
 */

const unitsSchema = z
  .string()
  .regex(/^[0-9]+$/)
  .meta({
    description: "Exact amount in the paid asset's base units (satoshi, wei, token units, piconero), as decimal digits",
    examples: ['1500'],
  });

export const refundSchema = z.strictObject({
  refund_id: z.string().meta({ examples: ['rfd_4n8Kq2Wm'] }),
  payment_id: z.string().meta({ examples: ['pay_8fJ2kLq0Zx'] }),
  refund_status: z.enum(refundStatuses).meta({
    description:
      '`awaiting_address` (no confirmed address yet), `ready` (to be sent by the merchant), `sent` (its exact amount was seen going to the address), `confirmed`, or `cancelled`',
  }),
  sequence: z
    .number()
    .int()
    .meta({ description: 'Grows with every change: drop a webhook not above the last applied' }),
  amount: amountSchema,
  amount_units: unitsSchema,
  currency: z.string().meta({ examples: ['USDTERC20'] }),
  network: z.string().meta({ examples: ['eth'] }),
  address: z.string().nullable().meta({ description: "The customer's address; null while awaited" }),
  address_source: z.enum(['merchant', 'customer']).nullable(),
  address_confirmed: z.boolean().meta({
    description:
      'The merchant confirmed the address: it can no longer change. An address the customer gave through a claim link stays unconfirmed (and the refund `awaiting_address`, with no `send`) until the merchant confirms it',
  }),
  claim_link_expires_at: timestampSchema.nullable().meta({
    description:
      "When the claim link asking the customer's address expires (or expired: compare with the time); null once it was used, or when none was made or the refund moved on",
  }),
  reason: z.string().nullable(),
  txid: z.string().nullable().meta({ description: 'The transaction that carried the exact amount to the address' }),
  explorer_url: z.string().nullable(),
  other_transfers: z
    .array(
      z.strictObject({ txid: z.string(), amount: amountSchema, amount_units: unitsSchema, confirmed: z.boolean() }),
    )
    .meta({ description: 'Transfers of another amount seen to the address: recorded, they complete nothing' }),
  created_at: timestampSchema,
  updated_at: timestampSchema,
  sent_at: timestampSchema.nullable(),
  confirmed_at: timestampSchema.nullable(),
  cancelled_at: timestampSchema.nullable(),
});

/** A refund as the API reads it: the webhook's refund plus what the merchant's wallet must send. */
export const refundReadSchema = refundSchema.extend({
  send: z
    .strictObject({
      uri: z.string().meta({
        description: 'Payment URI with the exact amount (BIP21, `monero:`, EIP-681) for any wallet or a QR code',
        examples: ['bitcoin:bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq?amount=0.000015'],
      }),
      evm_transaction: z
        .strictObject({
          chain_id: z.number().int(),
          to: z.string(),
          value: z
            .string()
            .regex(/^[0-9]+$/)
            .meta({ description: 'Wei, as decimal digits' }),
          data: z.string().regex(/^0x([0-9a-f]{2})*$/),
        })
        .nullable()
        .meta({ description: "EVM only: the transaction to send from the merchant's wallet (never signed here)" }),
    })
    .nullable()
    .meta({ description: 'Null until the address is confirmed, and once cancelled' }),
});

/** A claim link as the merchant sees it once, when it is made (only the token's hash is kept). */
export const claimLinkSchema = z
  .strictObject({
    url: z.string().meta({
      description: "The customer's single-use page to give the refund address, at the service's PUBLIC_URL",
      examples: ['https://pay.example.com/refund/Q2xhaW0tdG9rZW4tZXhhbXBsZS1vbmx5LTQzLWNoYXJz'],
    }),
    expires_at: timestampSchema,
    emailed: z.boolean().meta({ description: "A mail with the link was queued to the payment's customer e-mail" }),
  })
  .meta({ description: 'Shown only in this answer: copy it now to hand it over yourself' });

/** A refund with the claim link just made for it. */
export const refundWithClaimSchema = refundReadSchema.extend({ claim_link: claimLinkSchema.nullable() });

export const refundListSchema = z.strictObject({ refunds: z.array(refundReadSchema) });

/** The `refund.updated` payload (core/refunds/events.ts), sent byte for byte on every attempt. */
export const refundUpdatedSchema = z.strictObject({
  id: z.string(),
  event: z.literal('refund.updated'),
  created_at: timestampSchema,
  source: z.string(),
  merchant: z.strictObject({ user_id: z.string().nullable() }),
  refund: refundSchema,
});

/** A view as its JSON reads: an exact `Decimal` is written as a JSON number (core/money/decimal.ts `stringifyJson`). */
export type AsSent<T> = T extends Decimal
  ? number
  : T extends readonly (infer U)[]
    ? AsSent<U>[]
    : T extends object
      ? { [K in keyof T]: AsSent<T[K]> }
      : T;

/**
 * A view typed as it is sent, so a route can declare its answer as `z.input<typeof someSchema>` and `tsc` catches a
 * view and its schema drifting apart. Identity at run time.
 */
export function asSent<T>(view: T): AsSent<T> {
  return view as AsSent<T>;
}

/** GET /refunds/{refund_id}/psbt (core/chains/bitcoin/refund-psbt.ts `refundPsbt`, the Bitcoin family descriptor's). */
export const refundPsbtSchema = z.strictObject({
  refund_id: z.string().meta({ examples: ['rfd_4n8Kq2Wm'] }),
  psbt: z.string().meta({
    description:
      'The unsigned PSBT (BIP174 version 0), base64: each input with its previous transaction (`non_witness_utxo`), its output (`witness_utxo`, SegWit only) and its key origin (`bip32_derivs`); the change output with its key origin too',
    examples: ['cHNidP8BAHECAAAAAf...'],
  }),
  fee_units: unitsSchema.meta({ description: 'The fee the PSBT pays, in base units' }),
  fee_rate_units_per_vbyte: unitsSchema.meta({
    description:
      "Base units per virtual byte: the node's 6-block `estimatesmartfee`, never under its relay fee nor the chain's floor (1 sat/vB, 10 litoshi/vB, 1000 koinu/B) used when the node cannot estimate",
  }),
  vsize: z.number().int().meta({ description: 'Virtual size once signed, signatures counted at their longest' }),
  amount_units: unitsSchema.meta({ description: "The customer's output: exactly the refund amount" }),
  address: z.string().meta({ description: 'The confirmed refund address the customer output pays' }),
  change_units: unitsSchema.meta({
    description: 'Returned to the merchant; 0 when it would be dust (then in the fee)',
  }),
  change_address: z.string().nullable().meta({
    description:
      "The payment key's change child 1/N (the payment's address is receive child 0/N): not the payment's address, which would count it as a late deposit",
  }),
  inputs: z.array(
    z.strictObject({
      txid: z.string(),
      vout: z.number().int(),
      amount_units: unitsSchema,
      address: z.string().meta({ description: "The payment's address" }),
      path: z.string().meta({
        description:
          "Key path in the PSBT: from the master (84'/2'/0'/0/N) with `master_fingerprint`, else below the account key (0/N)",
        examples: ["84'/2'/0'/0/7"],
      }),
    }),
  ),
  key_origin: z.enum(['master', 'account']).meta({
    description:
      "`master`: the key origins carry the master fingerprint given and full paths, as hardware signers check; `account`: the account key's own fingerprint and the path below it (a master fingerprint cannot be known from an account xpub)",
  }),
});
