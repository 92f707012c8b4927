import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { Endpoint } from '../../dashboard-api/view-types.js';
import { ApiError, api, m } from '../api.js';
import { onDelivery, onPayment } from '../live.js';
import { location, navigate, pagePath } from '../router.js';
import { membership } from '../session.js';
import type { Delivery } from '../types.js';
import { DeliveryList } from '../ui/deliveries.js';
import { Link } from '../ui/link.js';
import { FieldError, Notice } from '../ui/notice.js';
import { PageTitle } from '../ui/page.js';
import { SecretOnce } from '../ui/secret-once.js';
import { useLoad } from '../ui/use-load.js';

/**
 * The webhook endpoint: its URL (saved under the same rules as the admin CLI: live mode https to public addresses
 * only), its enabled state, the secret's rotation (the new secret shown once), a test event whose delivery is
 * followed here, and the delivery log filtered by status.
 */
export function WebhooksPage({ merchantId }: { merchantId: string }) {
  const owner = membership(merchantId)?.role === 'owner';
  const status = location.value.query.get('status') ?? '';
  const endpoint = useLoad(() => api<Endpoint>(m(merchantId, '/webhook-endpoint')), [merchantId]);
  const log = useLoad(
    () =>
      api<{ deliveries: Delivery[] }>(
        m(merchantId, `/webhook-deliveries?limit=50${status ? `&status=${status}` : ''}`),
      ),
    [merchantId, status],
  );
  const notice = useSignal<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const urlErrors = useSignal<string[] | undefined>(undefined);
  const secret = useSignal('');
  const test = useSignal<Delivery | null>(null);

  const act = async <T,>(work: () => Promise<T>, done: string): Promise<T | undefined> => {
    notice.value = null;
    try {
      const r = await work();
      notice.value = { kind: 'ok', text: done };
      endpoint.reload();
      log.reload();
      return r;
    } catch (e) {
      notice.value = { kind: 'error', text: e instanceof ApiError ? e.message : String(e) };
      return undefined;
    }
  };

  const saveUrl = async (e: Event) => {
    e.preventDefault();
    const url = String(new FormData(e.currentTarget as HTMLFormElement).get('url') ?? '').trim();
    // A new try says nothing of the last one: an earlier "saved" must not stand beside this one's error.
    urlErrors.value = undefined;
    notice.value = null;
    try {
      await api(m(merchantId, '/webhook-endpoint'), { method: 'PUT', body: { url: url === '' ? null : url } });
      notice.value = { kind: 'ok', text: 'Webhook URL saved' };
      endpoint.reload();
    } catch (x) {
      urlErrors.value = x instanceof ApiError ? (x.fields.url ?? [x.message]) : [String(x)];
    }
  };

  // Live: every recorded attempt of a delivery on screen reads it again (the test event's panel included, through
  // every retry, not only its first attempt), and a payment change (which queues deliveries) refreshes the log.
  useEffect(() => {
    const stopDeliveries = onDelivery(async (id) => {
      if (test.value?.delivery_id === id) {
        try {
          test.value = await api<Delivery>(m(merchantId, `/webhook-deliveries/${id}`));
        } catch {
          // The log below still shows it; the next event tries again.
        }
      }
      if (test.value?.delivery_id === id || log.data.value?.deliveries.some((x) => x.delivery_id === id)) log.reload();
    });
    const stopPayments = onPayment(() => log.reload());
    return () => {
      stopDeliveries();
      stopPayments();
    };
  }, [merchantId, status]);

  const sendTest = async () => {
    const d = await act(
      () => api<Delivery>(m(merchantId, '/webhook-deliveries/test'), { body: {} }),
      'Test event queued',
    );
    if (!d) return;
    test.value = d;
    // Its first attempt may have been recorded before this answer arrived, its event with it: read it once more.
    test.value = await api<Delivery>(m(merchantId, `/webhook-deliveries/${d.delivery_id}`)).catch(() => d);
  };

  const ep = endpoint.data.value;
  return (
    <>
      <PageTitle title="Webhooks">Webhooks</PageTitle>
      {notice.value ? <Notice kind={notice.value.kind}>{notice.value.text}</Notice> : null}
      {endpoint.error.value ? <Notice kind="error">{endpoint.error.value}</Notice> : null}
      {ep ? (
        <section aria-labelledby="endpoint-h">
          <h2 id="endpoint-h">Endpoint</h2>
          <p>
            State:{' '}
            <strong data-field="endpoint-state">
              {ep.url ? (ep.enabled ? 'enabled' : 'disabled (the endpoint answered 410 Gone)') : 'no URL set'}
            </strong>
          </p>
          {ep.url ? (
            <p>
              Events go to:{' '}
              <span class="mono wrap" data-field="endpoint-url">
                {ep.url}
              </span>
            </p>
          ) : null}
          <form class="inline-form" onSubmit={saveUrl}>
            <label class="grow">
              Webhook URL
              <input
                name="url"
                type="url"
                defaultValue={ep.url ?? ''}
                readOnly={!owner}
                aria-describedby="url-err url-hint"
                aria-invalid={urlErrors.value ? 'true' : undefined}
                key={ep.url ?? ''}
              />
            </label>
            {owner ? (
              <button type="submit" class="primary">
                Save URL
              </button>
            ) : null}
          </form>
          <span class="hint" id="url-hint">
            {ep.mode === 'live'
              ? 'Live mode: https only, and the host must resolve to public addresses.'
              : 'Test mode: http and local addresses are allowed.'}
          </span>
          <FieldError id="url-err" messages={urlErrors.value} />
          {owner ? (
            <div class="actions">
              {ep.url && !ep.enabled ? (
                <button
                  type="button"
                  onClick={() =>
                    act(
                      () => api(m(merchantId, '/webhook-endpoint/enable'), { body: {} }),
                      'Endpoint enabled; held deliveries go out now',
                    )
                  }
                >
                  Re-enable endpoint
                </button>
              ) : null}
              <button
                type="button"
                onClick={async () => {
                  const r = await act(
                    () =>
                      api<{ webhook_secret: string }>(m(merchantId, '/webhook-endpoint/rotate-secret'), { body: {} }),
                    'Webhook secret rotated',
                  );
                  if (r) secret.value = r.webhook_secret;
                }}
              >
                Rotate secret
              </button>
              {ep.url ? (
                <button type="button" onClick={sendTest}>
                  Send test event
                </button>
              ) : null}
            </div>
          ) : null}
          {secret.value ? (
            <SecretOnce
              label="New webhook secret"
              secret={secret.value}
              onDone={() => {
                secret.value = '';
                notice.value = null;
              }}
            />
          ) : null}
          {test.value ? (
            <div class="test-delivery" aria-live="polite">
              <h3>Test event</h3>
              <DeliveryList
                merchantId={merchantId}
                deliveries={[test.value]}
                canRedeliver={false}
                onRedeliver={() => {}}
              />
            </div>
          ) : null}
        </section>
      ) : null}
      <section aria-labelledby="log-h">
        <h2 id="log-h">Deliveries</h2>
        <nav aria-label="Delivery status" class="tabs">
          {['', 'pending', 'succeeded', 'failed'].map((s) => (
            <Link
              key={s}
              href={`${pagePath(merchantId, 'webhooks')}${s ? `?status=${s}` : ''}`}
              aria-current={status === s ? 'page' : undefined}
            >
              {s === '' ? 'All' : s}
            </Link>
          ))}
        </nav>
        {log.error.value ? <Notice kind="error">{log.error.value}</Notice> : null}
        {log.data.value ? (
          <DeliveryList
            merchantId={merchantId}
            deliveries={log.data.value.deliveries}
            canRedeliver={owner}
            onRedeliver={(id) =>
              act(() => api(m(merchantId, `/webhook-deliveries/${id}/redeliver`), { body: {} }), 'Redelivery queued')
            }
          />
        ) : null}
      </section>
      {owner ? <RedeliverFailed merchantId={merchantId} onDone={(text) => act(async () => {}, text)} /> : null}
      {status && !['pending', 'succeeded', 'failed'].includes(status) ? (
        <button type="button" onClick={() => navigate(pagePath(merchantId, 'webhooks'))}>
          Show all
        </button>
      ) : null}
    </>
  );
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Owners: every failed delivery created in a range of days goes again (the day an endpoint was down). */
function RedeliverFailed({ merchantId, onDone }: { merchantId: string; onDone: (text: string) => void }) {
  const errors = useSignal<Record<string, string[]>>({});
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    errors.value = {};
    try {
      const r = await api<{ redelivered: number }>(m(merchantId, '/webhook-deliveries/redeliver-failed'), {
        body: { from: String(form.get('from') ?? ''), to: String(form.get('to') ?? '') },
      });
      onDone(`${r.redelivered} failed deliver${r.redelivered === 1 ? 'y' : 'ies'} queued again`);
    } catch (x) {
      errors.value =
        x instanceof ApiError ? { ...x.fields, ...(x.fields.from || x.fields.to ? {} : { to: [x.message] }) } : {};
    }
  };
  return (
    <section aria-labelledby="redeliver-h">
      <h2 id="redeliver-h">Redeliver failed deliveries</h2>
      <form class="filters" onSubmit={submit} aria-label="Redeliver failed deliveries">
        <label>
          From
          <input
            name="from"
            type="date"
            required
            defaultValue={isoDay(Date.now() - 7 * 86_400_000)}
            aria-describedby="rf-from-err"
          />
          <FieldError id="rf-from-err" messages={errors.value.from} />
        </label>
        <label>
          To
          <input name="to" type="date" required defaultValue={isoDay(Date.now())} aria-describedby="rf-to-err" />
          <FieldError id="rf-to-err" messages={errors.value.to} />
        </label>
        <div class="actions">
          <button type="submit">Redeliver all failed</button>
        </div>
      </form>
      <p class="hint">UTC days, the end day included. Each goes with its own delivery id and a fresh signature.</p>
    </section>
  );
}
