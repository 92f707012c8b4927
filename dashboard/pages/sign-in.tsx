import { useSignal } from '@preact/signals';
import { ApiError } from '../api.js';
import { signIn } from '../session.js';
import { Notice } from '../ui/notice.js';
import { PageTitle } from '../ui/page.js';

/**
 * The sign-in form (stable hooks for merchants' own browser runs: fields labelled "Email" and "Password", a button
 * "Sign in"). Shown at whatever URL was opened; signed in, that page appears.
 */
export function SignInPage({ reason }: { reason: string | null }) {
  const error = useSignal('');
  const busy = useSignal(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    busy.value = true;
    error.value = '';
    try {
      await signIn(String(form.get('email') ?? ''), String(form.get('password') ?? ''));
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
      <form onSubmit={submit} class="stack">
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
      </form>
    </main>
  );
}
