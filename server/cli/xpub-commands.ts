import { lastUsedIndex } from '../../core/addresses/gap.js';
import {
  getXpub,
  isKeyChain,
  type KeyChain,
  keyAddressAt,
  keyChains,
  keyPath,
  setXpub,
} from '../../core/addresses/xpubs.js';
import type { KeyNet } from '../../core/chains/families.js';
import { iso } from '../../core/clock.js';
import { getMerchant } from '../../core/merchants/merchants.js';
import { type CliContext, type Command, UsageError } from './command.js';
import { print } from './output.js';

function chainOf(v: unknown): KeyChain {
  const c = String(v ?? 'evm').toLowerCase();
  if (!isKeyChain(c)) throw new UsageError(`--chain: one of ${keyChains.join(', ')}`);
  return c;
}

/** The network keys and addresses are read for: the configured node's, mainnet when the chain has none configured. */
function netOf(ctx: CliContext, chain: KeyChain): KeyNet {
  return chain === 'evm' ? 'main' : (ctx.utxoNetOf(chain) ?? 'main');
}

/**
 * What an operator checks against the wallet: the first address and the next payment's must be ones the wallet
 * shows; on Bitcoin-family chains, also how many addresses were handed out since the last one paid (the wallet's gap
 * limit must cover that run, or it will not see the next payment).
 */
async function describeKey(ctx: CliContext, merchantId: string, chain: KeyChain) {
  const merchant = await getMerchant(ctx.db, merchantId);
  if (!merchant) throw new UsageError(`--merchant: no merchant ${merchantId}`);
  const key = await getXpub(ctx.db, merchantId, chain);
  const net = netOf(ctx, chain);
  const next = key?.nextIndex ?? 0;
  const gap =
    key && chain !== 'evm'
      ? await (async () => {
          const last = await lastUsedIndex(ctx.db, merchantId, chain);
          const unused = next - (last + 1);
          return { last_paid_index: last < 0 ? null : last, unused_run: unused, gap_limit: ctx.gapLimit };
        })()
      : null;
  return {
    merchant_id: merchantId,
    chain,
    network: chain === 'evm' ? null : net,
    path: keyPath(chain, net),
    xpub: key?.xpub ?? null,
    first_address: key ? keyAddressAt(chain, key.xpub, net, 0) : null,
    next_address_index: next,
    next_address: key ? keyAddressAt(chain, key.xpub, net, next) : null,
    ...(gap ?? {}),
    updated_at: key ? iso(key.updatedAt) : null,
  };
}

function gapLine(d: Awaited<ReturnType<typeof describeKey>>): string {
  if (d.unused_run === undefined) return '';
  const line = `\n${d.unused_run} address(es) handed out since the last paid one (${d.last_paid_index === null ? 'none paid yet' : `0/${d.last_paid_index}`}); gap limit ${d.gap_limit}.`;
  // The next address sits unused_run + 1 past the last paid one: beyond a wallet that stops after gap_limit unused.
  return d.unused_run >= (d.gap_limit ?? 0)
    ? `${line}\nWARNING: past the gap limit: the next payment's address is beyond what a wallet with a gap limit of ${d.gap_limit} scans; raise your wallet's gap limit above ${d.unused_run} or it may not show new payments.`
    : line;
}

export const xpubCommands: Command[] = [
  {
    name: 'xpub set',
    summary:
      "Registers a live merchant's account-level extended PUBLIC key for a chain (evm: m/44'/60'/0'; btc: m/84'/0'/0'; ltc: m/84'/2'/0'; doge: m/44'/3'/0'); payment N on that chain pays to its child 0/N. Private keys are refused.",
    options: {
      merchant: { type: 'string', description: 'merchant_id of a live merchant', required: true },
      xpub: {
        type: 'string',
        description:
          'Account extended public key as the wallet exports it (xpub; zpub for btc/ltc, Ltub for ltc, dgub for doge; tpub/vpub on test networks)',
        required: true,
      },
      chain: {
        type: 'string',
        description:
          "evm (default: Ethereum, BSC, Polygon, Base), btc, ltc or doge (read for the network of that chain's node in CHAINS_CONFIG)",
      },
      json: { type: 'boolean', description: 'Print one JSON object' },
    },
    async run(ctx, v) {
      const chain = chainOf(v.chain);
      const merchantId = String(v.merchant);
      const r = await setXpub(ctx.db, ctx.clock, merchantId, chain, String(v.xpub), netOf(ctx, chain));
      if (!r.ok) throw new UsageError(`--xpub: ${r.error.errors?.xpub?.[0] ?? r.error.message}`);
      const d = await describeKey(ctx, merchantId, chain);
      const notAccount =
        r.value.depth !== 3
          ? `\nNote: this key is at depth ${r.value.depth}; wallets export the account key ${d.path} at depth 3.`
          : '';
      print(
        v.json === true,
        ctx.out,
        { ...d, depth: r.value.depth, pasted_as: r.value.pastedAs },
        [
          `Registered the ${chain} key of ${merchantId} (account ${d.path}${d.network ? `, ${d.network}` : ''}).`,
          `First address (${d.path}/0/0): ${d.first_address}`,
          `Payment ${d.next_address_index} will pay to ${d.next_address} (child 0/${d.next_address_index}); check that your wallet shows these addresses.${notAccount}`,
        ].join('\n'),
      );
    },
  },
  {
    name: 'xpub show',
    summary:
      "Shows a merchant's registered key for a chain, its first address and the next payment's; on btc/ltc/doge also the unused run since the last paid address against UTXO_GAP_LIMIT.",
    options: {
      merchant: { type: 'string', description: 'merchant_id', required: true },
      chain: { type: 'string', description: 'evm (default), btc, ltc or doge' },
      json: { type: 'boolean', description: 'Print JSON' },
    },
    async run(ctx, v) {
      const d = await describeKey(ctx, String(v.merchant), chainOf(v.chain));
      print(
        v.json === true,
        ctx.out,
        d,
        d.xpub
          ? `${d.chain}  ${d.xpub}  (${d.path})\nfirst address -> ${d.first_address}\nnext payment ${d.next_address_index} -> ${d.next_address}${gapLine(d)}`
          : `(no ${d.chain} key registered)`,
      );
    },
  },
];
