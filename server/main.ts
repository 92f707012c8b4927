import { secretToken } from '../core/ids.js';
import { createMerchant, listMerchants } from '../core/merchants/merchants.js';
import { addUser } from '../core/users/accounts.js';
import { DEMO_MERCHANT_NAME, ensureDemoKey, rememberDemoKey } from '../dropin-api/demo.js';
import { ConfigError, loadConfig } from './config.js';
import { createHttpServer, listen, serveApp } from './http-server.js';
import { buildService } from './service.js';

/** The demo merchant's dashboard user, created with it on an empty store. */
const DEMO_USER_EMAIL = 'demo@example.com';

/**
 * `npm start`: serves the service; on an empty store it creates a demo test-mode merchant and its dashboard owner and
 * prints their keys and sign-in once.
 */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  const service = await buildService(config);
  const { deps } = service;

  if ((await listMerchants(deps.db)).length === 0) {
    const demo = await createMerchant(deps.db, deps.clock, { name: DEMO_MERCHANT_NAME, mode: 'test' });
    // The demo storefront (/demo/) needs the public key; public keys are meant to be published.
    await rememberDemoKey(deps.db, demo.public_key);
    // The dashboard's demo owner, printed once beside the keys; stored only hashed like every password.
    const demoPassword = secretToken(12);
    await addUser(deps, {
      merchantId: demo.merchant_id,
      email: DEMO_USER_EMAIL,
      role: 'owner',
      password: demoPassword,
    });
    process.stdout.write(
      [
        '',
        'Created a demo test-mode merchant (keys are shown once; they are stored only as hashes):',
        `  merchant_id     ${demo.merchant_id}`,
        `  secret key      ${demo.secret_key}   (server side, X-API-Key on /api/v1)`,
        `  public key      ${demo.public_key}   (browser drop-in)`,
        `  webhook secret  ${demo.webhook_secret}`,
        '',
        `Try: curl -H 'X-API-Key: ${demo.secret_key}' ${config.PUBLIC_URL}/api/v1/currencies`,
        '',
        `Dashboard: ${config.PUBLIC_URL}/dashboard/  sign in as ${DEMO_USER_EMAIL}, password ${demoPassword} (shown once)`,
        '',
      ].join('\n'),
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
  const port = await listen(server, config.PORT, config.HOST);
  deps.logger.info('listening', { url: config.PUBLIC_URL, host: config.HOST, port, store: deps.dialect });
  process.stdout.write(`Service listening on ${config.PUBLIC_URL} (store: ${deps.dialect})\n`);
  if (demoKey) process.stdout.write(`Demo storefront (buy with "Simulate payment"): ${config.PUBLIC_URL}/demo/\n`);

  const shutdown = async () => {
    server.close();
    await service.stop();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((e) => {
  process.stderr.write(`Fatal: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
