import { lastUsedIndex } from '../../core/addresses/gap.js';
import { viewKeys } from '../../core/chains/families.js';
import { iso } from '../../core/clock.js';
import { getMerchant } from '../../core/merchants/merchants.js';
import { type CliContext, type Command, UsageError } from './command.js';
import { print } from './output.js';

/**
 * What an operator checks against the merchant's Monero wallet: subaddress 1 (the first a payment uses) and the next
 * payment's, and the run of unpaid subaddresses against the wallet's lookahead. The view key is never printed.
 */
async function describeMonero(ctx: CliContext, merchantId: string) {
  if (!(await getMerchant(ctx.db, merchantId))) throw new UsageError(`--merchant: no merchant ${merchantId}`);
  const stored = await viewKeys.read(ctx.db, merchantId);
  if (!stored) return { merchant_id: merchantId, address: null };
  const last = await lastUsedIndex(ctx.db, merchantId, viewKeys.chain);
  // Subaddress 0 is the primary address, never a payment's: the run starts after the last paid one, or at 1.
  const unused = stored.nextIndex - Math.max(last + 1, 1);
  return {
    merchant_id: merchantId,
    address: stored.address,
    first_subaddress: stored.addressAt(1),
    next_subaddress_index: stored.nextIndex,
    next_subaddress: stored.addressAt(stored.nextIndex),
    last_paid_index: last < 0 ? null : last,
    unused_run: unused,
    lookahead: viewKeys.lookahead,
    updated_at: iso(stored.updatedAt),
  };
}

function lookaheadLine(d: Awaited<ReturnType<typeof describeMonero>>): string {
  if (d.unused_run === undefined) return '';
  const line = `\n${d.unused_run} subaddress(es) handed out since the last paid one; a wallet restored from keys looks ${d.lookahead} ahead.`;
  return d.unused_run >= d.lookahead
    ? `${line}\nWARNING: past the lookahead: raise your wallet's subaddress lookahead (monero-wallet-cli: set subaddress-lookahead 0:${d.unused_run + 50}) or it may not show new payments.`
    : line;
}

export const viewkeyCommands: Command[] = [
  {
    name: 'viewkey set',
    summary:
      "Registers a live merchant's Monero primary address and PRIVATE VIEW key (it sees incoming payments, cannot spend). Checked: the view key belongs to the address; a spend key or a seed is refused. Payment N pays to subaddress N of account 0.",
    options: {
      merchant: { type: 'string', description: 'merchant_id of a live merchant', required: true },
      address: { type: 'string', description: "The wallet's primary address (4...)", required: true },
      'view-key': { type: 'string', description: 'The private view key (64 hex digits)' },
      'view-key-stdin': {
        type: 'boolean',
        description: 'Read the private view key from standard input (keeps it out of shell history and ps)',
      },
      json: { type: 'boolean', description: 'Print one JSON object' },
    },
    async run(ctx, v) {
      const merchantId = String(v.merchant);
      const fromStdin = v['view-key-stdin'] === true;
      if (fromStdin === (v['view-key'] !== undefined))
        throw new UsageError('give either --view-key or --view-key-stdin');
      const viewKey = fromStdin ? (await ctx.readStdin()).trim() : String(v['view-key']);
      const r = await viewKeys.set(ctx.db, ctx.clock, merchantId, String(v.address), viewKey);
      if (!r.ok) {
        const e = r.error.errors;
        const which = e?.address ? '--address' : '--view-key';
        throw new UsageError(`${which}: ${e?.address?.[0] ?? e?.view_key?.[0] ?? r.error.message}`);
      }
      const d = await describeMonero(ctx, merchantId);
      print(
        v.json === true,
        ctx.out,
        d,
        [
          `Registered the Monero address and view key of ${merchantId} (the view key is stored and never shown again).`,
          `First subaddress (account 0, index 1): ${r.value.firstSubaddress}`,
          `Check that your wallet shows it (subaddresses of account 0). Payment ${d.next_subaddress_index} will pay to ${d.next_subaddress}.`,
        ].join('\n'),
      );
    },
  },
  {
    name: 'viewkey show',
    summary:
      "Shows a merchant's Monero primary address, first and next payment subaddress, and the unpaid run against a wallet's subaddress lookahead (never the view key).",
    options: {
      merchant: { type: 'string', description: 'merchant_id', required: true },
      json: { type: 'boolean', description: 'Print JSON' },
    },
    async run(ctx, v) {
      const d = await describeMonero(ctx, String(v.merchant));
      print(
        v.json === true,
        ctx.out,
        d,
        d.address
          ? `xmr  ${d.address}\nfirst subaddress -> ${d.first_subaddress}\nnext payment ${d.next_subaddress_index} -> ${d.next_subaddress}${lookaheadLine(d)}`
          : '(no Monero address registered)',
      );
    },
  },
];
