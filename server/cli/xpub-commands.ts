import { z } from 'zod';
import { evmAddressAt } from '../../core/addresses/hd.js';
import { getXpub, setXpub, xpubFamilies } from '../../core/addresses/xpubs.js';
import type { ChainFamily } from '../../core/catalog/types.js';
import { iso } from '../../core/clock.js';
import { getMerchant } from '../../core/merchants/merchants.js';
import { type Command, UsageError } from './command.js';

function family(v: unknown): ChainFamily {
  const r = z.enum(xpubFamilies as [ChainFamily, ...ChainFamily[]]).safeParse(v ?? 'evm');
  if (!r.success) throw new UsageError(`--family: one of ${xpubFamilies.join(', ')}`);
  return r.data;
}

/** What an operator checks against the wallet: the next payment's address must be one the wallet shows. */
async function describeKey(ctx: Parameters<Command['run']>[0], merchantId: string, fam: ChainFamily) {
  const merchant = await getMerchant(ctx.db, merchantId);
  if (!merchant) throw new UsageError(`--merchant: no merchant ${merchantId}`);
  const xpub = await getXpub(ctx.db, merchantId, fam);
  const row = xpub
    ? await ctx.db
        .selectFrom('merchant_xpubs')
        .select('updated_at')
        .where('merchant_id', '=', merchantId)
        .where('family', '=', fam)
        .executeTakeFirst()
    : undefined;
  const next = merchant.next_address_index;
  return {
    merchant_id: merchantId,
    family: fam,
    xpub,
    next_address_index: next,
    next_address: xpub ? evmAddressAt(xpub, next) : null,
    first_address: xpub ? evmAddressAt(xpub, 0) : null,
    updated_at: row ? iso(row.updated_at) : null,
  };
}

export const xpubCommands: Command[] = [
  {
    name: 'xpub set',
    summary:
      "Registers a live merchant's extended PUBLIC key (account level, m/44'/60'/0' for EVM); payment N pays to its child 0/N. Private keys (xprv) are refused.",
    options: {
      merchant: { type: 'string', description: 'merchant_id of a live merchant', required: true },
      xpub: {
        type: 'string',
        description: "Extended public key, xpub... (the account's, m/44'/60'/0')",
        required: true,
      },
      family: { type: 'string', description: 'Chain family (default evm: Ethereum, BSC, Polygon, Base)' },
      json: { type: 'boolean', description: 'Print one JSON object' },
    },
    async run(ctx, v) {
      const fam = family(v.family);
      const merchantId = String(v.merchant);
      const r = await setXpub(ctx.db, ctx.clock, merchantId, fam, String(v.xpub));
      if (!r.ok) throw new UsageError(`--xpub: ${r.error.errors?.xpub?.[0] ?? r.error.message}`);
      const d = await describeKey(ctx, merchantId, fam);
      const notAccount =
        r.value.depth !== 3
          ? `\nNote: this key is at depth ${r.value.depth}; wallets export the account key m/44'/60'/0' at depth 3.`
          : '';
      ctx.out(
        v.json === true
          ? JSON.stringify({ ...d, depth: r.value.depth })
          : `Registered the ${fam} xpub of ${merchantId}.\nPayment ${d.next_address_index} will pay to ${d.next_address} (child 0/${d.next_address_index}); check that your wallet shows this address.${notAccount}`,
      );
    },
  },
  {
    name: 'xpub show',
    summary: "Shows a merchant's registered extended public key and the address of its next payment.",
    options: {
      merchant: { type: 'string', description: 'merchant_id', required: true },
      family: { type: 'string', description: 'Chain family (default evm)' },
      json: { type: 'boolean', description: 'Print JSON' },
    },
    async run(ctx, v) {
      const d = await describeKey(ctx, String(v.merchant), family(v.family));
      ctx.out(
        v.json === true
          ? JSON.stringify(d)
          : d.xpub
            ? `${d.family}  ${d.xpub}\nnext payment ${d.next_address_index} -> ${d.next_address}`
            : `(no ${d.family} xpub registered)`,
      );
    },
  },
];
