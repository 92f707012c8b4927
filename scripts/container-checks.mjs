// The checks of scripts/container-test.sh against a built image (argument: its name). Containers use the host's
// network, so they reach this host's PostgreSQL and webhook receiver at 127.0.0.1 and listen on ports of their own.
// Everything it starts (containers, a volume, a database) is removed at the end, pass or fail.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { createServer as netServer } from 'node:net';
import pg from 'pg';

const image = process.argv[2] ?? 'localhost/crypto-payments:test';
const tag = randomBytes(3).toString('hex');
const volume = `cps-test-data-${tag}`;
const pgBase = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const pgDb = `cps_ct_${tag}`;
const containers = [];
// One secrets key for every container, as an operator gives it (README: Secrets at rest): the PostgreSQL replicas
// share one store, so they must share its key; without one the image could not make a key file next to PostgreSQL.
const secretsKey = randomBytes(32).toString('base64');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function podman(...args) {
  return execFileSync('podman', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}
function check(ok, what) {
  if (!ok) throw new Error(`FAILED: ${what}`);
  console.log(`ok - ${what}`);
}
async function freePort() {
  const s = netServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const p = s.address().port;
  await new Promise((r) => s.close(r));
  return p;
}

/** Starts a container of the image on the host network; `args` go before the image name. */
async function run(name, env, args = []) {
  const port = await freePort();
  const envArgs = Object.entries({
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    SECRETS_KEY: secretsKey,
    // The image creates no demo merchant (DEMO_MERCHANT=false); these checks pay with its keys.
    DEMO_MERCHANT: 'true',
    ...env,
  }).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  const full = `${name}-${tag}`;
  podman('run', '-d', '--name', full, '--network', 'host', ...envArgs, ...args, image);
  containers.push(full);
  return { name: full, url: `http://127.0.0.1:${port}` };
}
async function ready(c, ms = 60_000) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      const r = await fetch(`${c.url}/readyz`);
      if (r.status === 200) return;
    } catch {}
    if (Date.now() > end) throw new Error(`${c.name} not ready: ${podman('logs', c.name)}`);
    await sleep(200);
  }
}
const logs = (c) => spawnSync('podman', ['logs', c.name], { encoding: 'utf8' }).stdout;

async function api(c, key, path, body) {
  const r = await fetch(`${c.url}/api/v1${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${path}: ${r.status} ${text}`);
  return { json: JSON.parse(text), text };
}
async function paidPayment(c, key, n) {
  const p = await api(c, key, '/payments', { amount: 20 + n, currency: 'ltc', email: 'ct@example.com' });
  const address = p.json.data.blockchain.pay_address;
  const amount = /"pay_amount":([0-9.]+)/.exec(p.text)[1];
  await api(c, key, '/sandbox/transfers', { currency: 'ltc', address, amount });
  await api(c, key, '/sandbox/blocks', { network: 'ltc', count: 2 });
  return p.json.data.payment.payment_id;
}
/** SIGTERM and the time to exit. Asynchronous: the webhook receiver in this process must keep answering meanwhile. */
async function stopTimed(c) {
  const t0 = Date.now();
  podman('kill', '--signal', 'TERM', c.name);
  const waited = spawn('podman', ['wait', c.name], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  waited.stdout.on('data', (d) => {
    out += d;
  });
  await new Promise((r) => waited.once('exit', r));
  return { code: Number(out.trim()), ms: Date.now() - t0 };
}

/** A real webhook receiver on this host: checks signatures with node:crypto, answers 200 after 400 ms, so a burst is still in flight when SIGTERM comes. */
async function receiver() {
  const got = [];
  const r = { secret: '', got };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      const ts = req.headers['x-service-timestamp'];
      const sig = `sha256=${createHmac('sha256', r.secret).update(`${ts}.${body}`).digest('hex')}`;
      got.push({ id: req.headers['x-service-delivery'], verified: sig === req.headers['x-service-signature'] });
      setTimeout(() => res.writeHead(200).end('ok'), 400);
    });
  });
  await new Promise((res) => server.listen(0, '127.0.0.1', res));
  r.url = `http://127.0.0.1:${server.address().port}/hook`;
  r.close = () => new Promise((res) => server.close(res));
  return r;
}

async function main() {
  podman('volume', 'create', volume);

  // A forgotten volume: SQLite on /data would die with the container, so the service refuses to start.
  const bare = spawnSync('podman', ['run', '--rm', '--network', 'host', '-e', 'PORT=1', image], { encoding: 'utf8' });
  check(bare.status === 1, `without a volume the container exits 1 (got ${bare.status})`);
  // podman's own complaints (no systemd here for its health-check timers) are its lines, not the service's.
  const said = bare.stderr
    .split('\n')
    .filter((l) => l && !l.startsWith('time='))
    .join('\n');
  check(
    /^Cannot start: \/data is not a mounted volume/.test(said) && said.split('\n').length === 1,
    `... with one line: ${said}`,
  );
  const config = JSON.parse(podman('image', 'inspect', image, '--format', '{{json .Config}}'));
  const health = JSON.parse(podman('image', 'inspect', image, '--format', '{{json .HealthCheck}}'));
  check(
    config.User === 'node' && '8787/tcp' in (config.ExposedPorts ?? {}) && health?.Test?.length > 0,
    'the image runs as user node, exposes 8787 and has a HEALTHCHECK',
  );

  const a = await run('a', {}, ['-v', `${volume}:/data`]);
  await ready(a);
  check(true, '/readyz answers 200 on the SQLite volume');
  check(
    spawnSync('podman', ['healthcheck', 'run', a.name], { stdio: 'ignore' }).status === 0,
    "the image's HEALTHCHECK passes",
  );
  const out = logs(a);
  const key = /secret key\s+(sk_test_\S+)/.exec(out)?.[1];
  const merchant = /merchant_id\s+(mer_\S+)/.exec(out)?.[1];
  const whsec = /webhook secret\s+(whsec_\S+)/.exec(out)?.[1];
  const signIn = /sign in as demo@example\.com, password (\S+)/.exec(out)?.[1];
  check(key && merchant && whsec && signIn, 'the demo merchant and its dashboard sign-in are in the logs');

  const uid = podman('exec', a.name, 'sh', '-c', "awk '/^Uid:/ {print $2}' /proc/1/status");
  check(uid !== '0', `the service runs as a non-root user (uid ${uid})`);
  // Wall time on a machine shared with other work varies; the CPU the CLI itself used (bash's `times` for its
  // children) is what says whether it starts quickly.
  const timed = podman(
    'exec',
    a.name,
    'bash',
    '-c',
    's=$(date +%s%N); admin merchant list >/dev/null; e=$(date +%s%N); times; echo $(( (e - s) / 1000000 ))',
  ).split('\n');
  const [cpuUser, cpuSys] = (timed[1] ?? '').split(' ').map((t) => {
    const m = /(\d+)m([\d.]+)s/.exec(t);
    return m ? Number(m[1]) * 60_000 + Number(m[2]) * 1000 : Number.NaN;
  });
  const cliCpu = Math.round(cpuUser + cpuSys);
  const cliWall = Number(timed[2]);
  check(
    cliCpu < 1000,
    `the admin CLI runs inside the container: admin merchant list in ${cliWall} ms (${cliCpu} ms CPU)`,
  );
  const listed = podman('exec', a.name, 'admin', 'merchant', 'list');
  check(listed.includes(merchant), 'admin merchant list shows the demo merchant');

  const paid = await paidPayment(a, key, 0);
  const read = await api(a, key, `/payments/${paid}`);
  check(read.json.data.payment_status === 'finished', `a payment created, paid in test mode and read back (${paid})`);

  const stop1 = await stopTimed(a);
  check(stop1.code === 0 && stop1.ms < 10_000, `SIGTERM: exit ${stop1.code} in ${stop1.ms} ms`);
  podman('start', a.name);
  await ready(a);
  const again = await api(a, key, `/payments/${paid}`);
  check(again.json.data.payment_status === 'finished', 'restarted on the same volume, the payment is still there');

  // SIGTERM during a webhook burst to a real receiver on this host.
  const rcv = await receiver();
  rcv.secret = whsec;
  podman('exec', a.name, 'admin', 'merchant', 'update', '--merchant', merchant, '--webhook-url', rcv.url);
  await sleep(1500); // KEY_CACHE_MS: the running service sees the new URL within a second
  const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => paidPayment(a, key, i + 1)));
  const stop2 = await stopTimed(a);
  check(stop2.code === 0 && stop2.ms < 10_000, `SIGTERM during a webhook burst: exit ${stop2.code} in ${stop2.ms} ms`);
  const beforeRestart = rcv.got.length;
  podman('start', a.name);
  await ready(a);
  let deliveries = [];
  const end = Date.now() + 60_000;
  for (;;) {
    const text = podman(
      'exec',
      a.name,
      'admin',
      'webhook',
      'deliveries',
      '--merchant',
      merchant,
      '--limit',
      '500',
      '--json',
    );
    deliveries = JSON.parse(text).filter((d) => burst.includes(d.payment_id));
    if (deliveries.length >= burst.length * 2 && deliveries.every((d) => d.status === 'succeeded')) break;
    if (Date.now() > end) throw new Error(`deliveries not all made: ${JSON.stringify(deliveries).slice(0, 500)}`);
    await sleep(500);
  }
  const ids = rcv.got.map((g) => g.id);
  const unique = new Set(ids);
  check(
    rcv.got.every((g) => g.verified),
    `every webhook was signed correctly (${rcv.got.length} received)`,
  );
  check(
    deliveries.every((d) => unique.has(d.delivery_id)),
    `every delivery made (${deliveries.length}; ${beforeRestart} requests by the time it had stopped, ${rcv.got.length - beforeRestart} after the restart)`,
  );
  check(ids.length === unique.size, `each delivery made once (${ids.length} requests, ${unique.size} deliveries)`);
  await rcv.close();

  // Two containers at once on this host's PostgreSQL (a fresh database): both up, one demo merchant, both serving.
  const admin = new pg.Client({ connectionString: pgBase });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${pgDb}`);
  await admin.end();
  const u = new URL(pgBase);
  u.pathname = `/${pgDb}`;
  const [b1, b2] = await Promise.all([
    run('pg1', { DATABASE_URL: u.toString() }),
    run('pg2', { DATABASE_URL: u.toString() }),
  ]);
  await Promise.all([ready(b1), ready(b2)]);
  const created = [logs(b1), logs(b2)].filter((l) => l.includes('Created a demo test-mode merchant'));
  check(created.length === 1, 'two containers started together on one fresh PostgreSQL: exactly one demo merchant');
  const pgKey = /secret key\s+(sk_test_\S+)/.exec(created[0])[1];
  const onB1 = await paidPayment(b1, pgKey, 0);
  const onB2 = await api(b2, pgKey, `/payments/${onB1}`);
  check(onB2.json.data.payment_status === 'finished', 'a payment made through one container is read through the other');
}

async function cleanup() {
  for (const c of containers) spawnSync('podman', ['rm', '-f', '-t', '0', c], { stdio: 'ignore' });
  spawnSync('podman', ['volume', 'rm', '-f', volume], { stdio: 'ignore' });
  try {
    const admin = new pg.Client({ connectionString: pgBase });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${pgDb} WITH (FORCE)`);
    await admin.end();
  } catch {}
}

try {
  await main();
  await cleanup();
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  for (const c of containers) {
    const l = spawnSync('podman', ['logs', '--tail', '20', c], { encoding: 'utf8' });
    console.error(`--- ${c}:\n${l.stdout}${l.stderr}`);
  }
  await cleanup();
  process.exit(1);
}
