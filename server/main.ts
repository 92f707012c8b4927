import { SecretsKeyError } from '../core/secrets/keyring.js';
import { ensureDemoKey } from '../dropin-api/demo.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { createDemoOnFirstStart, isEmptyStore } from './first-start.js';
import { stopOnSignals } from './graceful-stop.js';
import { createHttpServer, listen, serveApp } from './http-server.js';
import { buildService } from './service.js';
import { checkStartup, requirePublicUrl, StartupError } from './startup-checks.js';

/**
 * `npm start` (and the container's command): serves the service; on an empty store it creates a demo test-mode
 * merchant and its dashboard owner and prints their keys and sign-in once (unless DEMO_MERCHANT=false, as the
 * image sets it). Bad configuration, an unwritable or
 * unmounted data directory and an unreachable store stop it with one line and exit code 1.
 */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
    await checkStartup(config);
  } catch (e) {
    if (e instanceof ConfigError || e instanceof StartupError) {
      process.stderr.write(`${e instanceof StartupError ? 'Cannot start: ' : ''}${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  const service = await buildService(config).catch((e) => {
    // A missing or wrong secrets key is the operator's to fix: one line naming the variable, like bad settings.
    if (!(e instanceof SecretsKeyError)) throw e;
    process.stderr.write(`Cannot start: ${e.message}\n`);
    process.exit(1);
  });
  const { deps } = service;
  try {
    await requirePublicUrl(config, deps.db);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    process.stderr.write(`${e.message}\n`);
    await service.stop();
    process.exit(1);
  }
  for (const line of secretsNotice(service.secrets)) process.stdout.write(`${line}\n`);

  if (config.DEMO_MERCHANT) {
    const demoLines = await createDemoOnFirstStart(deps, config.PUBLIC_URL);
    if (demoLines) process.stdout.write(demoLines.join('\n'));
  } else if (await isEmptyStore(deps.db)) {
    process.stdout.write(
      'No merchant yet (DEMO_MERCHANT=false): create one with `admin merchant create --name "My shop" --mode live` ' +
        'and its dashboard owner with `admin user create` (README: Merchants and keys)\n',
    );
  }
  const demoKey = await ensureDemoKey(deps.db, deps.clock);

  service.start();
  const server = createHttpServer({
    headersTimeoutMs: config.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: config.KEEP_ALIVE_TIMEOUT_MS,
  });
  serveApp(server, service.app);
  stopOnSignals({ server, logger: deps.logger, stopService: (o) => service.stop(o) });
  const port = await listen(server, config.PORT, config.HOST);
  deps.logger.info('listening', { url: config.PUBLIC_URL, host: config.HOST, port, store: deps.dialect });
  process.stdout.write(`Service listening on ${config.PUBLIC_URL} (store: ${deps.dialect})\n`);
  if (demoKey) process.stdout.write(`Demo storefront (buy with "Simulate payment"): ${config.PUBLIC_URL}/demo/\n`);
}

/** What this start did to the secrets key and the store's secrets, said once. */
function secretsNotice(s: Awaited<ReturnType<typeof buildService>>['secrets']): string[] {
  const lines: string[] = [];
  if (s.createdKeyFile)
    lines.push(
      `Created the secrets key file ${s.createdKeyFile} (key ${s.keyring.id}, mode 0600): the store's webhook ` +
        'secrets, TOTP secrets and view keys are encrypted with it. Back it up apart from the store; in production ' +
        'set SECRETS_KEY or SECRETS_KEY_FILE (README: Secrets at rest).',
    );
  if (s.sealedNow > 0)
    lines.push(`Encrypted ${s.sealedNow} secrets the store held in the clear (key ${s.keyring.id}).`);
  return lines;
}

main().catch((e) => {
  process.stderr.write(`Fatal: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
