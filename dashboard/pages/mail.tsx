import { useSignal } from '@preact/signals';
import type { MailEntry, MailLog, MailSettings, TestMail } from '../../dashboard-api/view-types.js';
import { ApiError, api, m } from '../api.js';
import { when } from '../format.js';
import { location, pagePath } from '../router.js';
import { DataTable } from '../ui/data-table.js';
import { Link } from '../ui/link.js';
import { FieldError, Notice } from '../ui/notice.js';
import { PageTitle } from '../ui/page.js';
import { Status } from '../ui/status.js';
import { useLoad } from '../ui/use-load.js';
import { useSave } from '../ui/use-save.js';

const TOGGLES = [
  ['receipts', 'Receipt when a payment is finished'],
  ['underpaid', 'Underpaid: the amount still due and the link to finish'],
  ['expired_partly_paid', 'Expired after a partial payment: what happens next'],
] as const;

/**
 * E-mail (owners; mails can carry invitation links): the sender name and reply-to of customer mails, which customer
 * mails go out, "Send a test e-mail", and the mail log with every attempt's answer from the relay, like the webhook
 * deliveries. With no SMTP relay configured, mail waits in the log and each mail's text can be opened here, so an
 * invitation or reset link can still be handed over by hand.
 */
export function MailPage({ merchantId }: { merchantId: string }) {
  const status = location.value.query.get('status') ?? '';
  const settings = useLoad(() => api<MailSettings>(m(merchantId, '/mail-settings')), [merchantId]);
  const log = useLoad(
    () => api<MailLog>(m(merchantId, `/mails?limit=50${status ? `&status=${status}` : ''}`)),
    [merchantId, status],
  );
  const { notice, fields, save: saved } = useSave();

  const save = (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    return saved(async () => {
      settings.data.value = await api<MailSettings>(m(merchantId, '/mail-settings'), {
        method: 'PUT',
        body: {
          sender_name: String(form.get('sender_name') ?? ''),
          reply_to: String(form.get('reply_to') ?? ''),
          receipts: form.get('receipts') === 'on',
          underpaid: form.get('underpaid') === 'on',
          expired_partly_paid: form.get('expired_partly_paid') === 'on',
        },
      });
    }, 'Mail settings saved');
  };

  const sendTest = async () => {
    notice.value = null;
    try {
      const r = await api<TestMail>(m(merchantId, '/mail-settings/test'), { body: {} });
      notice.value = {
        kind: 'ok',
        text: r.relay
          ? 'Test e-mail queued to your address: the relay’s answer shows in the mail log below'
          : 'No SMTP relay is configured: the test e-mail waits in the mail log below',
      };
      log.reload();
    } catch (x) {
      notice.value = { kind: 'error', text: x instanceof ApiError ? x.message : String(x) };
    }
  };

  const s = settings.data.value;
  const relay = log.data.value?.relay ?? s?.relay;
  return (
    <>
      <PageTitle title="E-mail">E-mail</PageTitle>
      {notice.value ? <Notice kind={notice.value.kind}>{notice.value.text}</Notice> : null}
      {settings.error.value ? <Notice kind="error">{settings.error.value}</Notice> : null}
      {relay === false ? (
        <Notice kind="info">
          No SMTP relay is configured (SMTP_URL): mail is kept in the log below and not sent. Open a mail to read its
          text, for example to hand an invitation link over yourself.
        </Notice>
      ) : null}
      {s ? (
        <section aria-labelledby="mail-settings-h">
          <h2 id="mail-settings-h">Sender</h2>
          <form class="stack" onSubmit={save} key={`${s.sender_name}|${s.reply_to}`}>
            <label>
              Sender name
              <input
                name="sender_name"
                defaultValue={s.sender_name ?? ''}
                maxLength={100}
                aria-describedby="sender-hint sender-err"
              />
            </label>
            <span id="sender-hint" class="hint">
              Shown as the sender of customer mails; the address stays the service’s own (MAIL_FROM).
            </span>
            <FieldError id="sender-err" messages={fields.value.sender_name} />
            <label>
              Reply-to
              <input name="reply_to" type="email" defaultValue={s.reply_to ?? ''} aria-describedby="reply-err" />
            </label>
            <FieldError id="reply-err" messages={fields.value.reply_to} />
            <fieldset>
              <legend>Customer e-mails</legend>
              {TOGGLES.map(([name, label]) => (
                <label key={name} class="inline">
                  <input type="checkbox" name={name} defaultChecked={s[name]} /> {label}
                </label>
              ))}
            </fieldset>
            <div class="actions">
              <button type="submit" class="primary">
                Save mail settings
              </button>
              <button type="button" onClick={sendTest}>
                Send a test e-mail
              </button>
            </div>
          </form>
        </section>
      ) : null}
      <section aria-labelledby="mail-log-h">
        <h2 id="mail-log-h">Mail log</h2>
        <nav aria-label="Mail status" class="tabs">
          {['', 'pending', 'sent', 'failed'].map((x) => (
            <Link
              key={x}
              href={`${pagePath(merchantId, 'mail')}${x ? `?status=${x}` : ''}`}
              aria-current={status === x ? 'page' : undefined}
            >
              {x === '' ? 'All' : x}
            </Link>
          ))}
        </nav>
        <button type="button" onClick={() => log.reload()}>
          Refresh
        </button>
        {log.error.value ? <Notice kind="error">{log.error.value}</Notice> : null}
        {log.data.value ? <MailList merchantId={merchantId} mails={log.data.value.mails} /> : null}
      </section>
    </>
  );
}

/** Each mail: recipient, subject, status, and every attempt with the relay's answer; its text on demand. */
function MailList({ merchantId, mails }: { merchantId: string; mails: MailEntry[] }) {
  if (mails.length === 0) return <p>No mail yet.</p>;
  return (
    <ul class="deliveries">
      {mails.map((x) => (
        <li key={x.id} data-mail={x.id}>
          <div class="delivery-head">
            <Status status={x.status} /> <span data-field="mail-to">{x.to}</span> ·{' '}
            <strong data-field="mail-subject">{x.subject}</strong> <span class="muted">({x.kind})</span>{' '}
            <span class="muted">{when(x.created_at)}</span>
            {x.sent_at ? <span class="muted"> · sent {when(x.sent_at)}</span> : null}
            {x.next_attempt_at ? <span class="muted"> · next attempt {when(x.next_attempt_at)}</span> : null}
          </div>
          {x.attempt_log.length > 0 ? (
            <DataTable class="attempts" caption={`Attempts of the mail to ${x.to}`}>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Started</th>
                  <th scope="col">Code</th>
                  <th scope="col" class="num">
                    Duration
                  </th>
                  <th scope="col">Relay’s answer</th>
                </tr>
              </thead>
              <tbody>
                {x.attempt_log.map((a) => (
                  <tr key={a.attempt_no}>
                    <td>{a.attempt_no}</td>
                    <td>{when(a.started_at)}</td>
                    <td data-field="relay-code">{a.code ?? '—'}</td>
                    <td class="num">{a.duration_ms} ms</td>
                    <td class="excerpt wrap" data-field="relay-answer">
                      {a.response ?? '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </DataTable>
          ) : (
            <p class="muted">Not attempted yet.</p>
          )}
          <MailText merchantId={merchantId} id={x.id} to={x.to} />
        </li>
      ))}
    </ul>
  );
}

/** A mail's plain text, read when opened (it may hold a one-time link, so the log never carries it). */
function MailText({ merchantId, id, to }: { merchantId: string; id: string; to: string }) {
  const text = useSignal<string | null>(null);
  const error = useSignal('');
  const open = async () => {
    error.value = '';
    try {
      text.value = (await api<MailEntry>(m(merchantId, `/mails/${encodeURIComponent(id)}`))).text ?? '';
    } catch (x) {
      error.value = x instanceof ApiError ? x.message : String(x);
    }
  };
  return (
    <>
      {text.value === null ? (
        <button type="button" class="small" onClick={open} aria-label={`Read the mail to ${to}`}>
          Read the mail
        </button>
      ) : (
        <div class="payload">
          <pre data-field="mail-text">{text.value}</pre>
        </div>
      )}
      {error.value ? <Notice kind="error">{error.value}</Notice> : null}
    </>
  );
}
