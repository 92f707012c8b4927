import type { NotifyPrefs } from '../../dashboard-api/view-types.js';
import { api } from '../api.js';
import { FieldError, Notice } from '../ui/notice.js';
import { PageTitle } from '../ui/page.js';
import { useLoad } from '../ui/use-load.js';
import { useSave } from '../ui/use-save.js';

/** The events a member can be mailed about, as core/notifications/prefs.ts lists them. */
const EVENTS = [
  ['payment_finished', 'A payment finished'],
  ['payment_partially_paid', 'A payment was partially paid'],
  ['payment_paid_late', 'A payment was paid late'],
  ['webhook_failing', 'The webhook endpoint is failing or was switched off'],
  ['relayer', 'The relayer is low on gas or sweeps are failing'],
  ['prices_stale', 'Prices are stale (live payments refused)'],
] as const;

const pathOf = (merchantId: string) => `/account/notifications/${encodeURIComponent(merchantId)}`;

/**
 * Notifications: which of this merchant's events the signed-in member is mailed, at once or in one daily digest.
 * Each member's own choice (any role), so nothing here changes what the merchant has.
 */
export function NotificationsPage({ merchantId }: { merchantId: string }) {
  const prefs = useLoad(() => api<NotifyPrefs>(pathOf(merchantId)), [merchantId]);
  const { notice, fields, save: saved } = useSave();

  const save = (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    return saved(async () => {
      prefs.data.value = await api<NotifyPrefs>(pathOf(merchantId), {
        method: 'PUT',
        body: {
          events: EVENTS.map(([name]) => name).filter((name) => form.get(name) === 'on'),
          delivery: form.get('delivery') === 'digest' ? 'digest' : 'immediate',
        },
      });
    }, 'Notification choices saved');
  };

  const p = prefs.data.value;
  const hour = `${String(p?.digest_hour_utc ?? 7).padStart(2, '0')}:00 UTC`;
  return (
    <>
      <PageTitle title="Notifications">Notifications</PageTitle>
      <p>Choose what you are told by e-mail about this merchant. These choices are yours alone.</p>
      {notice.value ? <Notice kind={notice.value.kind}>{notice.value.text}</Notice> : null}
      {prefs.error.value ? <Notice kind="error">{prefs.error.value}</Notice> : null}
      {p ? (
        <form class="stack" onSubmit={save} key={`${p.events.join()}|${p.delivery}`}>
          <fieldset aria-describedby="events-err">
            <legend>Mail me when</legend>
            {EVENTS.map(([name, label]) => (
              <label key={name} class="inline">
                <input type="checkbox" name={name} defaultChecked={p.events.includes(name)} /> {label}
              </label>
            ))}
          </fieldset>
          <FieldError id="events-err" messages={fields.value.events} />
          <fieldset>
            <legend>How</legend>
            <label class="inline">
              <input type="radio" name="delivery" value="immediate" defaultChecked={p.delivery === 'immediate'} /> One
              mail per event, at once
            </label>
            <label class="inline">
              <input type="radio" name="delivery" value="digest" defaultChecked={p.delivery === 'digest'} /> One daily
              digest at {hour}
            </label>
          </fieldset>
          <div class="actions">
            <button type="submit" class="primary">
              Save notification choices
            </button>
          </div>
        </form>
      ) : null}
    </>
  );
}
