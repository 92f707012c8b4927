import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One DATA the relay read: the parsed mail, the reply it gave, and how the session got there. */
export interface RelayedMail {
  parsed: ParsedMail;
  raw: string;
  code: number;
  secure: boolean;
  user: string | undefined;
  /** When the relay answered (epoch ms). */
  at: number;
}

/** What to answer a mail with: 250 accepts; 4xx and 5xx refuse with that code; `hang` never answers. */
export type RelayReply = { code: number; message?: string } | 'hang';

export interface TestRelay {
  port: number;
  /** smtp:// URL with the relay's user and password. */
  url: string;
  /** PEM of the relay's self-signed certificate (a client trusts it as its CA). */
  ca: string;
  /** Every DATA read, whatever was answered. */
  received: RelayedMail[];
  /** Mails answered 250. */
  accepted(): RelayedMail[];
  reply: (mail: ParsedMail, n: number) => RelayReply;
  /** Stops listening (connections refused) until `start()` listens again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** A self-signed certificate for 127.0.0.1 and localhost, made by Debian's openssl. */
function selfSigned(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'relay-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A real SMTP relay for tests (npm smtp-server): STARTTLS with a self-signed certificate, AUTH required and only
 * over TLS (so a delivered mail proves both), every mail parsed with mailparser. Port 0 at first, then the same port
 * across stop()/start(), like a relay that goes down and comes back.
 */
export async function startRelay(user = 'relay-user', pass = 'relay-pass'): Promise<TestRelay> {
  const { key, cert } = selfSigned();
  const received: RelayedMail[] = [];
  let server: SMTPServer;
  let port = 0;
  const relay: TestRelay = {
    port: 0,
    url: '',
    ca: cert,
    received,
    accepted: () => received.filter((r) => r.code === 250),
    reply: () => ({ code: 250 }),
    async stop() {
      await new Promise<void>((r) => server.close(() => r()));
    },
    async start() {
      server = make();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve());
      });
      port = (server.server.address() as { port: number }).port;
      relay.port = port;
      relay.url = `smtp://${user}:${pass}@127.0.0.1:${port}`;
    },
    close: () => relay.stop(),
  };
  const make = () =>
    new SMTPServer({
      key,
      cert,
      secure: false,
      allowInsecureAuth: false,
      authMethods: ['PLAIN', 'LOGIN'],
      closeTimeout: 50,
      logger: false,
      onAuth(auth, _session, cb) {
        if (auth.username === user && auth.password === pass) cb(null, { user });
        else cb(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
      },
      onData(stream, session, cb) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', async () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const parsed = await simpleParser(raw);
          const answer = relay.reply(parsed, received.length);
          const code = answer === 'hang' ? 0 : answer.code;
          received.push({ parsed, raw, code, secure: session.secure, user: session.user, at: Date.now() });
          if (answer === 'hang') return;
          if (code === 250) cb(null, answer.message ?? `Queued as ${received.length}`);
          else cb(Object.assign(new Error(answer.message ?? `Refused with ${code}`), { responseCode: code }));
        });
      },
    });
  await relay.start();
  return relay;
}
