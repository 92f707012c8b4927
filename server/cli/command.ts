import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import type { ChainsConfig } from '../../core/chains/chains-config.js';
import type { KeyNet } from '../../core/chains/families.js';
import type { Clock } from '../../core/clock.js';
import type { Unlocked } from '../../core/secrets/unlock.js';
import type { Database } from '../../core/store/schema.js';

export interface CliContext {
  db: Kysely<Database>;
  clock: Clock;
  out: (line: string) => void;
  /** The service's PUBLIC_URL: one-time links printed by the CLI point there. */
  publicUrl: string;
  /** Standard input as text (`--password-stdin`). */
  readStdin: () => Promise<string>;
  /** The network of a Bitcoin-family chain's node in CHAINS_CONFIG (keys and addresses differ per network), or null. */
  utxoNetOf: (chain: string) => KeyNet | null;
  /** UTXO_GAP_LIMIT: the gap limit merchants' Bitcoin-family wallets are set to. */
  gapLimit: number;
  /** The Bitcoin-family nodes of CHAINS_CONFIG (`refund psbt` asks them what is unspent). @default none */
  utxoNetworks?: readonly ChainsConfig['utxo'][number][];
  /** The EVM networks of CHAINS_CONFIG (forwarder factories, nodes for deploy-factory and contract checks). */
  evmNetworks: readonly ChainsConfig['evm'][number][];
  /** The store's secrets key and where it came from (`secrets rotate-key`). */
  secrets: Unlocked;
}

type OptionSpec = { type: 'string' | 'boolean'; multiple?: boolean; description: string; required?: boolean };

/** One admin command: its options, its help text, and what it does. */
export interface Command {
  name: string;
  summary: string;
  options: Record<string, OptionSpec>;
  run?(ctx: CliContext, values: Record<string, string | boolean | string[] | undefined>): Promise<void>;
  /** Instead of `run`: a command that must not open (or create, or migrate) the store itself, like restore. */
  standalone?(
    env: { databaseUrl: string; out: (line: string) => void },
    values: Record<string, string | boolean | string[] | undefined>,
  ): Promise<void>;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

export function helpOf(c: Command): string {
  const lines = [`Usage: npm run -s admin -- ${c.name} [options]`, '', c.summary, '', 'Options:'];
  for (const [k, o] of Object.entries(c.options)) {
    const arg = o.type === 'string' ? ` <${k}>` : '';
    lines.push(
      `  --${k}${arg}${o.multiple ? ' (repeatable)' : ''}${o.required ? ' (required)' : ''}  ${o.description}`,
    );
  }
  lines.push('  --help  Show this help');
  return lines.join('\n');
}

export function parseCommandArgs(c: Command, argv: string[]) {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = { help: { type: 'boolean' } };
  for (const [k, o] of Object.entries(c.options))
    options[k] = { type: o.type, ...(o.multiple ? { multiple: true } : {}) };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: false, strict: true });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
  if (!values.help) {
    for (const [k, o] of Object.entries(c.options))
      if (o.required && values[k] === undefined) throw new UsageError(`--${k} is required`);
  }
  return values;
}
