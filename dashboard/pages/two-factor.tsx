import { useSignal } from '@preact/signals';
import type { TwoFactorSetup as Setup } from '../../dashboard-api/view-types.js';
import { ApiError, api, m } from '../api.js';
import { membership, updateMe } from '../session.js';
import { FieldError, Notice } from '../ui/notice.js';
import { PageTitle } from '../ui/page.js';
import { useLoad } from '../ui/use-load.js';

type Note = { kind: 'ok' | 'error'; text: string } | null;

/**
 * The signed-in user's two-factor sign-in: set up (a QR code and the secret as text, then a code from the app to
 * prove it took; then the ten recovery codes, shown once), or turn off with a current code. The page learns that
 * it is on only once the recovery codes are put away, so a page waiting for it does not move on before.
 */
export function TwoFactorSection() {
  const status = useLoad(() => api<{ enabled: boolean; recovery_codes_left: number }>('/account/two-factor'), []);
  const setup = useSignal<Setup | null>(null);
  const codes = useSignal<string[] | null>(null);
  const note = useSignal<Note>(null);
  const fields = useSignal<Record<string, string[]>>({});
  const fail = (err: unknown) => {
    fields.value = err instanceof ApiError ? err.fields : {};
    note.value = { kind: 'error', text: err instanceof ApiError ? err.message : String(err) };
  };
  const enabled = status.data.value?.enabled;
  return (
    <section aria-labelledby="tf-h">
      <h2 id="tf-h">Two-factor sign-in</h2>
      {note.value ? <Notice kind={note.value.kind}>{note.value.text}</Notice> : null}
      {codes.value ? (
        <section class="secret" aria-label="Recovery codes">
          <p>
            <strong>Recovery codes</strong>: each signs you in once without your app. Save them now somewhere safe; they
            are shown this once and the service keeps only hashes of them.
          </p>
          <ul class="recovery-codes">
            {codes.value.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ul>
          <div class="actions">
            <button
              type="button"
              class="primary"
              onClick={() => {
                codes.value = null;
                updateMe((x) => ({ ...x, two_factor_enabled: true }));
                status.reload();
              }}
            >
              Done, I saved them
            </button>
          </div>
        </section>
      ) : enabled === undefined ? null : enabled ? (
        <>
          <p>
            On: signing in asks for a code from your authenticator app after your password.{' '}
            {status.data.value?.recovery_codes_left} recovery codes left.
          </p>
          <form
            class="filters"
            onSubmit={async (e) => {
              e.preventDefault();
              const form = e.currentTarget as HTMLFormElement;
              note.value = null;
              fields.value = {};
              try {
                await api('/account/two-factor/disable', { body: { code: String(new FormData(form).get('code')) } });
                updateMe((x) => ({ ...x, two_factor_enabled: false }));
                note.value = { kind: 'ok', text: 'Two-factor sign-in is off.' };
                status.reload();
              } catch (err) {
                fail(err);
              }
            }}
          >
            <label>
              Current code or recovery code
              <input name="code" autocomplete="one-time-code" required maxLength={20} aria-describedby="tf-off-e" />
              <FieldError id="tf-off-e" messages={fields.value.code} />
            </label>
            <div class="actions">
              <button type="submit">Turn off two-factor</button>
            </div>
          </form>
        </>
      ) : setup.value ? (
        <form
          class="stack"
          onSubmit={async (e) => {
            e.preventDefault();
            note.value = null;
            fields.value = {};
            try {
              const r = await api<{ recovery_codes: string[] }>('/account/two-factor', {
                body: { code: String(new FormData(e.currentTarget as HTMLFormElement).get('code')) },
              });
              setup.value = null;
              codes.value = r.recovery_codes;
            } catch (err) {
              fail(err);
            }
          }}
        >
          <p>Scan this code with your authenticator app, or type the key below into it.</p>
          <img class="qr" src={setup.value.qr_svg} alt="QR code of your two-factor secret" width={200} height={200} />
          <p>
            Key: <code data-secret>{setup.value.secret}</code>
          </p>
          <label>
            Code from your app
            <input
              name="code"
              inputMode="numeric"
              autocomplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              required
              aria-describedby="tf-on-e"
            />
            <FieldError id="tf-on-e" messages={fields.value.code} />
          </label>
          <div class="actions">
            <button type="submit" class="primary">
              Turn on two-factor
            </button>
          </div>
        </form>
      ) : (
        <>
          <p>Off: your password alone signs you in. Add a code from an authenticator app to every sign-in.</p>
          <div class="actions">
            <button
              type="button"
              class="primary"
              onClick={async () => {
                note.value = null;
                try {
                  setup.value = await api<Setup>('/account/two-factor/setup', { method: 'POST' });
                } catch (err) {
                  fail(err);
                }
              }}
            >
              Set up two-factor
            </button>
          </div>
        </>
      )}
    </section>
  );
}

/** An owner's switch: every member of this merchant must use two-factor sign-in. */
export function RequireTwoFactor({ merchantId }: { merchantId: string }) {
  const note = useSignal<Note>(null);
  const ref = membership(merchantId);
  if (ref?.role !== 'owner') return null;
  const required = ref.two_factor_required;
  return (
    <section aria-labelledby="tf-req-h">
      <h2 id="tf-req-h">Two-factor for this merchant</h2>
      {note.value ? <Notice kind={note.value.kind}>{note.value.text}</Notice> : null}
      <p>
        {required
          ? 'Required: members without two-factor are sent to set it up before they see this merchant.'
          : 'Not required: each member chooses.'}
      </p>
      <div class="actions">
        <button
          type="button"
          onClick={async () => {
            note.value = null;
            try {
              await api(m(merchantId, '/two-factor-requirement'), { method: 'PUT', body: { required: !required } });
              updateMe((x) => ({
                ...x,
                merchants: x.merchants.map((r) =>
                  r.merchant_id === merchantId ? { ...r, two_factor_required: !required } : r,
                ),
              }));
            } catch (err) {
              note.value = { kind: 'error', text: err instanceof ApiError ? err.message : String(err) };
            }
          }}
        >
          {required ? 'Stop requiring two-factor' : 'Require two-factor of every member'}
        </button>
      </div>
    </section>
  );
}

/** In place of a merchant's pages while the merchant requires two-factor and the user has not set it up. */
export function TwoFactorRequiredPage({ merchantId }: { merchantId: string }) {
  return (
    <>
      <PageTitle title="Set up two-factor">Set up two-factor sign-in</PageTitle>
      <Notice kind="info">
        {membership(merchantId)?.name ?? 'This merchant'} requires two-factor sign-in of every member: set it up to
        continue.
      </Notice>
      <TwoFactorSection />
    </>
  );
}
