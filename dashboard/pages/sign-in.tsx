import { useSignal } from '@preact/signals';
import { ApiError, api } from '../api.js';
import { signIn, signInWithCode } from '../session.js';
import { Notice } from '../ui/notice.js';
import { PageTitle } from '../ui/page.js';

/** The one answer to "Forgot password?", whether or not the address has an account (the service's words too). */
const RESET_SENT =
  'If this address has a dashboard account, a link to choose a new password is on its way. It works for 30 minutes.';

/**
 * "Forgot password?": asks the service to mail a one-time link to the set-password page. The answer is the same for
 * every well-formed address, so the form cannot tell who has an account; only a refusal (bad address, too many
 * requests) is shown as an error.
 */
function ForgotPassword({ onBack }: { onBack: () => void }) {
  const error = useSignal('');
  const sent = useSignal(false);
  const busy = useSignal(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const email = String(new FormData(e.currentTarget as HTMLFormElement).get('email') ?? '');
    busy.value = true;
    error.value = '';
    try {
      await api('/password-reset', { body: { email } });
      sent.value = true;
    } catch (x) {
      error.value = x instanceof ApiError ? (x.fields.email?.[0] ?? x.message) : String(x);
    } finally {
      busy.value = false;
    }
  };
  return (
    <form onSubmit={submit} class="stack" key="forgot">
      <h2>Forgot password?</h2>
      <p>Type your account's e-mail address: a link to choose a new password is mailed to it.</p>
      <label>
        Email
        <input name="email" type="email" autocomplete="username" required />
      </label>
      {sent.value ? <Notice kind="ok">{RESET_SENT}</Notice> : null}
      {error.value ? <Notice kind="error">{error.value}</Notice> : null}
      <button type="submit" class="primary" disabled={busy.value}>
        Send the link
      </button>
      <button type="button" onClick={onBack}>
        Back to sign in
      </button>
    </form>
  );
}

/**
 * The sign-in form (stable hooks for merchants' own browser runs: fields labelled "Email" and "Password", a button
 * "Sign in"; with two-factor on, then a field "Authentication code" and a button "Verify"). Shown at whatever URL
 * was opened; signed in, that page appears.
 */
export function SignInPage({ reason }: { reason: string | null }) {
  const error = useSignal('');
  const busy = useSignal(false);
  const pending = useSignal<string | null>(null);
  const forgot = useSignal(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    busy.value = true;
    error.value = '';
    try {
      if (pending.value !== null) await signInWithCode(pending.value, String(form.get('code') ?? ''));
      else {
        const r = await signIn(String(form.get('email') ?? ''), String(form.get('password') ?? ''));
        if ('pendingToken' in r) pending.value = r.pendingToken;
      }
    } catch (x) {
      error.value = x instanceof ApiError ? x.message : String(x);
    } finally {
      busy.value = false;
    }
  };
  return (
    <main id="main" class="narrow">
      <PageTitle title="Sign in">Sign in</PageTitle>
      {reason ? <Notice kind="info">{reason}</Notice> : null}
      {forgot.value ? (
        <ForgotPassword onBack={() => (forgot.value = false)} />
      ) : pending.value !== null ? (
        <form onSubmit={submit} class="stack" key="code">
          <p>
            Two-factor sign-in is on for this account: type the 6-digit code your authenticator app shows now, or one of
            your recovery codes.
          </p>
          <label>
            Authentication code
            <input name="code" autocomplete="one-time-code" required maxLength={20} spellcheck={false} />
          </label>
          {error.value ? <Notice kind="error">{error.value}</Notice> : null}
          <button type="submit" class="primary" disabled={busy.value}>
            Verify
          </button>
          <button
            type="button"
            onClick={() => {
              pending.value = null;
              error.value = '';
            }}
          >
            Start again
          </button>
        </form>
      ) : (
        <form onSubmit={submit} class="stack" key="password">
          <label>
            Email
            <input name="email" type="email" autocomplete="username" required />
          </label>
          <label>
            Password
            <input name="password" type="password" autocomplete="current-password" required />
          </label>
          {error.value ? <Notice kind="error">{error.value}</Notice> : null}
          <button type="submit" class="primary" disabled={busy.value}>
            Sign in
          </button>
          <button type="button" onClick={() => (forgot.value = true)}>
            Forgot password?
          </button>
        </form>
      )}
    </main>
  );
}
