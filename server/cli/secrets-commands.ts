import { existsSync, renameSync } from 'node:fs';
import { createKeyFile, readKeyFile } from '../../core/secrets/key-source.js';
import { Keyring } from '../../core/secrets/keyring.js';
import { resealAll } from '../../core/secrets/stored-secrets.js';
import { type Command, UsageError } from './command.js';

export const secretsCommands: Command[] = [
  {
    name: 'secrets rotate-key',
    summary:
      'Re-encrypts every stored secret (webhook and TOTP secrets, Monero view keys) under a new key, in one ' +
      'transaction. Stop the service first; start it again with the new key.',
    options: {
      'new-key-file': {
        type: 'string',
        description:
          'the new key: read from this file, or a random one written there (mode 0600) when it does not exist. ' +
          'Optional only with no key configured: then the default key file is replaced',
      },
    },
    async run(ctx, v) {
      const from = ctx.secrets.keyring;
      const given = typeof v['new-key-file'] === 'string' ? v['new-key-file'] : null;
      const defaultFile = ctx.secrets.source.defaultFile;
      if (!given && !defaultFile)
        throw new UsageError(
          `--new-key-file is required: the current key comes from ${ctx.secrets.source.name}, which the new one replaces`,
        );
      // With the default key file, the new key waits beside it until the store is re-encrypted, then takes its place:
      // interrupted in between, the store still opens with the old file, and a second run picks up the same new key.
      const file = given ?? `${defaultFile}.next`;
      const to = new Keyring(existsSync(file) ? readKeyFile(file, file) : createKeyFile(file));
      if (to.id === from.id) throw new UsageError(`${file} holds the current key (${from.id}): give a new one`);
      const n = await resealAll(ctx.db, from, to);
      if (!given && defaultFile) {
        renameSync(file, defaultFile);
        ctx.out(`Re-encrypted ${n} secrets under key ${to.id} (was ${from.id}); ${defaultFile} now holds the new key.`);
        ctx.out('Start the service again.');
        return;
      }
      ctx.out(`Re-encrypted ${n} secrets under key ${to.id} (was ${from.id}).`);
      ctx.out(
        `Now set SECRETS_KEY_FILE=${file} (or SECRETS_KEY to its content) in place of the old key and start the ` +
          'service again; the old key opens nothing any more.',
      );
    },
  },
];
