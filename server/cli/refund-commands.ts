import { shippedAssets } from '../../core/catalog/assets.js';
import { createCatalog } from '../../core/catalog/catalog.js';
import { configuredAssets } from '../../core/chains/families.js';
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
];
