import { markRefunded } from '../../core/payments/refund.js';
import type { Command } from './command.js';
import { print } from './output.js';

export const paymentCommands: Command[] = [
  {
    name: 'payment refund',
    summary:
      'Marks a finished or partially paid payment as refunded after you returned the funds yourself (no automatic refunds).',
    options: {
      payment: { type: 'string', description: 'payment_id', required: true },
      json: { type: 'boolean', description: 'Print JSON' },
    },
    async run(ctx, v) {
      const p = await markRefunded(ctx.db, ctx.clock, String(v.payment));
      print(
        v.json === true,
        ctx.out,
        { payment_id: p.id, payment_status: p.status, sequence: p.sequence },
        `${p.id} is now ${p.status}`,
      );
    },
  },
];
