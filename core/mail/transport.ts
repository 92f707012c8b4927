import type { ConnectionOptions } from 'node:tls';
import { createTransport } from 'nodemailer';
import type { Mail } from './outbox.js';

/** The relay's verdict on one attempt: accepted, try again later (4xx, no answer), or refused for good (5xx). */
export type SendOutcome =
  | { kind: 'sent'; code: number | null; response: string }
  | { kind: 'retry'; code: number | null; response: string }
  | { kind: 'failed'; code: number | null; response: string };

export interface MailTransportOptions {
  /** `smtps://user:pass@host:465` (TLS from the start) or `smtp://user:pass@host:587` (STARTTLS when offered). */
  url: string;
  /** `Name <address>` or an address: the envelope sender and the From address of every mail. */
  from: string;
  /** Connection, greeting and per-command budget. */
  timeoutMs: number;
  /** Connections kept to the relay. */
  maxConnections: number;
  /** Extra TLS options (a private CA for a relay with its own certificate: the tests' self-signed one). */
  tls?: ConnectionOptions;
}

/** `Name <a@b>` or `a@b` -> its parts; throws on anything else, so a bad MAIL_FROM stops start-up. */
export function parseFrom(from: string): { name: string | null; address: string } {
  const m = /^\s*(?:"?([^"<>\r\n]*?)"?\s*<([^<>\s]+@[^<>\s]+)>|([^<>\s]+@[^<>\s]+))\s*$/.exec(from);
  if (!m) throw new Error('must be an address or "Name <address>"');
  const address = (m[2] ?? m[3]) as string;
  return { name: m[1]?.trim() || null, address };
}

/**
 * The operator's SMTP relay through nodemailer's pooled SMTP transport: STARTTLS whenever the relay offers it
 * (required for smtp:// on port 587), AUTH from the URL. Each mail goes with the Message-ID fixed in the outbox, so
 * the same mail sent twice after a crash is recognisable as one. The relay's reply code decides what happens next.
 */
export class MailTransport {
  private readonly transport;
  private readonly from: { name: string | null; address: string };
  private readonly domain: string;

  constructor(o: MailTransportOptions) {
    this.from = parseFrom(o.from);
    this.domain = this.from.address.split('@')[1] as string;
    this.transport = createTransport({
      pool: true,
      url: o.url,
      maxConnections: o.maxConnections,
      connectionTimeout: o.timeoutMs,
      greetingTimeout: o.timeoutMs,
      socketTimeout: o.timeoutMs * 3,
      ...(o.tls ? { tls: o.tls } : {}),
    });
  }

  /** The Message-ID header value of a mail: its fixed left part at the From address's domain. */
  messageIdOf(m: Pick<Mail, 'message_id'>): string {
    return `<${m.message_id}@${this.domain}>`;
  }

  async send(m: Mail): Promise<SendOutcome> {
    try {
      const info = await this.transport.sendMail({
        from: { name: m.from_name ?? this.from.name ?? '', address: this.from.address },
        to: m.to_address,
        ...(m.reply_to ? { replyTo: m.reply_to } : {}),
        subject: m.subject,
        text: m.text_body,
        ...(m.html_body ? { html: m.html_body } : {}),
        messageId: this.messageIdOf(m),
        date: new Date(m.created_at),
        // The mail's own id, so a relay's logs and ours can be matched.
        headers: { 'X-Service-Mail-Id': m.id },
      });
      const response = String(info.response ?? '');
      return { kind: 'sent', code: replyCode(response), response: response.slice(0, 500) };
    } catch (e) {
      return classify(e);
    }
  }

  close(): void {
    this.transport.close();
  }
}

function replyCode(response: string): number | null {
  const m = /^(\d{3})/.exec(response);
  return m ? Number(m[1]) : null;
}

/**
 * 5xx is the relay's final word on this mail (unknown recipient, refused content): failed, never retried. 4xx
 * (greylisting, a full queue) and no answer at all (refused connection, timeout, TLS trouble) retry on the schedule.
 * An authentication failure retries too: it is the operator's configuration, not the mail, that is wrong.
 */
function classify(e: unknown): SendOutcome {
  const err = e as { responseCode?: number; response?: string; code?: string; message?: string };
  const code = typeof err.responseCode === 'number' ? err.responseCode : null;
  const response = (err.response ?? `${err.code ?? 'ERROR'}: ${err.message ?? String(e)}`).slice(0, 500);
  if (code !== null && code >= 500 && code < 600 && err.code !== 'EAUTH') return { kind: 'failed', code, response };
  return { kind: 'retry', code, response };
}
