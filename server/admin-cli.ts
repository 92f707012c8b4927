import { systemClock } from '../core/clock.js';
import { unlockStore } from '../core/secrets/unlock.js';
import { migrate, openStore } from '../core/store/db.js';
import { backupCommands } from './cli/backup-commands.js';
import { type Command, helpOf, parseCommandArgs, UsageError } from './cli/command.js';
import { evmCommands } from './cli/evm-commands.js';
import { merchantCommands } from './cli/merchant-commands.js';
import { paymentCommands } from './cli/payment-commands.js';
import { payoutCommands } from './cli/payout-commands.js';
import { refundCommands } from './cli/refund-commands.js';
import { secretsCommands } from './cli/secrets-commands.js';
import { userCommands } from './cli/user-commands.js';
import { viewkeyCommands } from './cli/viewkey-commands.js';
import { webhookCommands } from './cli/webhook-commands.js';
import { xpubCommands } from './cli/xpub-commands.js';
import { ConfigError, loadConfig } from './config.js';

/** Every admin command; other parts of the service add theirs to this list. */
export const commands: Command[] = [
  ...merchantCommands,
  ...paymentCommands,
  ...refundCommands,
  ...xpubCommands,
  ...viewkeyCommands,
  ...payoutCommands,
  ...evmCommands,
  ...webhookCommands,
  ...userCommands,
  ...backupCommands,
  ...secretsCommands,
];

function overview(): string {
  return [
    'Usage: npm run -s admin -- <command> [options]   (--help on any command)',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(22)} ${c.summary}`),
  ].join('\n');
}

/**
 * The admin CLI works on the store named by DATABASE_URL, creating and migrating it when needed, so it works
 * before the first `npm start`. Exit codes: 0 done, 2 usage error, 1 failure.
 */
export async function runCli(
  argv: string[],
  out: (l: string) => void = (l) => process.stdout.write(`${l}\n`),
): Promise<number> {
  const words = argv.filter((a) => !a.startsWith('-'));
  const cmd = commands.find((c) => {
    const parts = c.name.split(' ');
    return parts.every((p, i) => words[i] === p);
  });
  if (!cmd) {
    out(overview());
    return argv.length === 0 || argv.includes('--help') ? 0 : 2;
  }
  const rest = argv.slice(cmd.name.split(' ').length);
  try {
    const values = parseCommandArgs(cmd, rest);
    if (values.help) {
      out(helpOf(cmd));
      return 0;
    }
    const config = loadConfig();
    if (cmd.standalone) {
      await cmd.standalone({ databaseUrl: config.DATABASE_URL, out }, values);
      return 0;
    }
    const store = openStore(config.DATABASE_URL, { poolSize: 2 });
    try {
      await migrate(store);
      const unlocked = await unlockStore(store, config, config.DATABASE_URL);
      // Standard error: standard output may be a command's JSON.
      if (unlocked.createdKeyFile)
        process.stderr.write(
          `Created the secrets key file ${unlocked.createdKeyFile} (mode 0600): back it up apart from the store.\n`,
        );
      const utxoNetOf = (chain: string) => config.UTXO_NETWORKS.find((n) => n.network === chain)?.chain ?? null;
      const ctx = {
        db: store.db,
        clock: systemClock,
        out,
        publicUrl: config.PUBLIC_URL,
        readStdin,
        utxoNetOf,
        evmNetworks: config.EVM_NETWORKS,
        utxoNetworks: config.UTXO_NETWORKS,
        secrets: unlocked,
      };
      await cmd.run?.({ ...ctx, gapLimit: config.UTXO_GAP_LIMIT }, values);
    } finally {
      await store.close();
    }
    return 0;
  } catch (e) {
    if (e instanceof UsageError || e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n\n${helpOf(cmd)}\n`);
      return 2;
    }
    process.stderr.write(`Error: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

/** Everything on standard input, up to its end (`echo pw | admin user create ... --password-stdin`). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runCli(process.argv.slice(2)).then((code) => process.exit(code));
}
