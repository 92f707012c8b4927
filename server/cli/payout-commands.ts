import { getXpub } from '../../core/addresses/xpubs.js';
import { forwarders } from '../../core/chains/families.js';
import { getPayout, PAYOUT_CHAINS, type PayoutChain, setPayout } from '../../core/forwarders/payouts.js';
import { getMerchant } from '../../core/merchants/merchants.js';
import { type CliContext, type Command, UsageError } from './command.js';
import { print } from './output.js';

function chainOf(v: unknown): PayoutChain {
  const c = String(v ?? 'evm').toLowerCase();
  if (!(PAYOUT_CHAINS as readonly string[]).includes(c))
    throw new UsageError(`--chain: one of ${PAYOUT_CHAINS.join(', ')}`);
  return c as PayoutChain;
}

/** Which address a new EVM payment of the merchant pays to, per configured network. */
async function describePayout(ctx: CliContext, merchantId: string, chain: PayoutChain) {
  const merchant = await getMerchant(ctx.db, merchantId);
  if (!merchant) throw new UsageError(`--merchant: no merchant ${merchantId}`);
  const payout = await getPayout(ctx.db, merchantId, chain);
  const xpub = await getXpub(ctx.db, merchantId, 'evm');
  const networks = Object.fromEntries(
    ctx.evmNetworks.map((n) => [
      n.network,
      n.forwarders && payout ? 'forwarder' : xpub ? 'xpub' : 'none (set a payout address or an xpub)',
    ]),
  );
  return { merchant_id: merchantId, chain, payout, xpub_set: xpub !== null, pays_with: networks };
}

export const payoutCommands: Command[] = [
  {
    name: 'payout set',
    summary:
      "Sets a live merchant's payout address: on EVM networks with a forwarderFactory every new payment pays to a forwarder that can only send to it (it wins over the xpub there). Checksum checked; the zero address refused; a contract (a Safe) allowed with a warning.",
    options: {
      merchant: { type: 'string', description: 'merchant_id of a live merchant', required: true },
      address: { type: 'string', description: '0x address (EIP-55 checksum checked when mixed case)', required: true },
      chain: { type: 'string', description: 'evm (default: every EVM network)' },
      json: { type: 'boolean', description: 'Print one JSON object' },
    },
    async run(ctx, v) {
      const chain = chainOf(v.chain);
      const merchantId = String(v.merchant);
      const r = await setPayout(ctx.db, ctx.clock, merchantId, chain, String(v.address));
      if (!r.ok) throw new UsageError(`--address: ${r.error.errors?.address?.[0] ?? r.error.message}`);
      const { contractOn } = await forwarders.payoutCodeOn(ctx.evmNetworks, r.value);
      const d = await describePayout(ctx, merchantId, chain);
      const warning = contractOn.length
        ? `WARNING: ${r.value} is a contract on ${contractOn.join(', ')}: fine for a Safe or a wallet contract; make sure it accepts the native coin, or native deposits stay in their forwarders.`
        : null;
      if (warning) process.stderr.write(`${warning}\n`);
      print(
        v.json === true,
        ctx.out,
        { ...d, contract_on: contractOn },
        [
          `Payout of ${merchantId} set to ${r.value}.`,
          ...Object.entries(d.pays_with).map(([n, how]) => `  ${n}: new payments pay to ${how}`),
          'Open payments keep their addresses; a forwarder always pays to the payout it was created with.',
        ].join('\n'),
      );
    },
  },
  {
    name: 'payout show',
    summary:
      "Shows a merchant's payout address and, per configured EVM network, whether new payments use forwarders or the xpub.",
    options: {
      merchant: { type: 'string', description: 'merchant_id', required: true },
      chain: { type: 'string', description: 'evm (default)' },
      json: { type: 'boolean', description: 'Print JSON' },
    },
    async run(ctx, v) {
      const d = await describePayout(ctx, String(v.merchant), chainOf(v.chain));
      print(
        v.json === true,
        ctx.out,
        d,
        [
          d.payout ? `${d.chain}  ${d.payout}` : `(no ${d.chain} payout address)`,
          ...Object.entries(d.pays_with).map(([n, how]) => `  ${n}: new payments pay to ${how}`),
        ].join('\n'),
      );
    },
  },
];
