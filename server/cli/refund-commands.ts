import { shippedAssets } from '../../core/catalog/assets.js';
import { createCatalog } from '../../core/catalog/catalog.js';
import { configuredAssets, refundPsbt } from '../../core/chains/families.js';
import { refundSendInstructions } from '../../core/refunds/send-instructions.js';
import { findRefund } from '../../core/refunds/store.js';
import { type Command, UsageError } from './command.js';

export const refundCommands: Command[] = [
  {
    name: 'refund tx',
    summary:
      'Prints what a wallet must send for a refund whose address is confirmed: the payment URI with the exact amount and, on EVM, the transaction (to, value in wei, data) for any wallet. Nothing is signed or sent; the watcher sees the refund when it arrives.',
    options: {
      refund: { type: 'string', description: 'refund_id (rfd_...)', required: true },
      json: { type: 'boolean', description: 'Print JSON' },
    },
    async run(ctx, v) {
      const r = await findRefund(ctx.db, String(v.refund));
      if (!r) throw new UsageError(`No refund ${String(v.refund)}`);
      // The configured chain ids and token contracts, as the service's own catalog has them.
      const send = refundSendInstructions(
        createCatalog(configuredAssets(shippedAssets, { evm: [...ctx.evmNetworks], utxo: [], monero: null })),
        r,
      );
      if (!send)
        throw new UsageError(
          `Refund ${r.id} is ${r.status}${r.address_confirmed_at === null ? ' without a confirmed address' : ''}: nothing to send`,
        );
      if (v.json) {
        ctx.out(JSON.stringify({ refund_id: r.id, refund_status: r.status, ...send }));
        return;
      }
      ctx.out(`uri:   ${send.uri}`);
      if (send.evm_transaction) {
        ctx.out(`chain: ${send.evm_transaction.chain_id}`);
        ctx.out(`to:    ${send.evm_transaction.to}`);
        ctx.out(`value: ${send.evm_transaction.value}`);
        ctx.out(`data:  ${send.evm_transaction.data}`);
      }
    },
  },
  {
    name: 'refund psbt',
    summary:
      "Prints the unsigned PSBT (base64) of a ready BTC, LTC or DOGE refund, spending the payment's own unspent outputs back to the customer, as GET /api/v1/refunds/{id}/psbt gives it: sign it in the wallet holding the account key and broadcast it. Asks the network's node in CHAINS_CONFIG; nothing is signed or sent.",
    options: {
      refund: { type: 'string', description: 'refund_id (rfd_...)', required: true },
      'master-fingerprint': {
        type: 'string',
        description: "The wallet's master key fingerprint (8 hex digits), for full key paths a hardware signer checks",
      },
      json: { type: 'boolean', description: 'Print JSON (the API answer)' },
    },
    async run(ctx, v) {
      const r = await findRefund(ctx.db, String(v.refund));
      if (!r) throw new UsageError(`No refund ${String(v.refund)}`);
      const fp = v['master-fingerprint'];
      const got = await refundPsbt(
        ctx.db,
        { networks: { evm: [...ctx.evmNetworks], utxo: [...(ctx.utxoNetworks ?? [])], monero: null } },
        {
          merchantId: r.merchant_id,
          refundId: r.id,
          masterFingerprint: typeof fp === 'string' ? fp : undefined,
        },
      );
      if (!got.ok) {
        const fields = got.error.errors;
        throw new UsageError(fields ? Object.values(fields).flat().join('; ') : got.error.message);
      }
      const d = got.value;
      if (v.json) {
        ctx.out(JSON.stringify(d));
        return;
      }
      ctx.out(`to:     ${d.address} ${d.amount_units} units`);
      for (const i of d.inputs) ctx.out(`input:  ${i.txid}:${i.vout} ${i.amount_units} units (${i.path})`);
      if (d.change_address) ctx.out(`change: ${d.change_address} ${d.change_units} units`);
      ctx.out(`fee:    ${d.fee_units} units (${d.fee_rate_units_per_vbyte}/vB, ${d.vsize} vB)`);
      ctx.out(`psbt:   ${d.psbt}`);
    },
  },
];
