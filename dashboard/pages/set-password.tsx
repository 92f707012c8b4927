import { useSignal } from '@preact/signals';
import { ApiError, api } from '../api.js';
import { navigate } from '../router.js';
import { FieldError, Notice } from '../ui/notice.js';
import { PageTitle } from '../ui/page.js';

/**
 * The page a one-time link opens (`/dashboard/set-password#token=pw_...`): the token is in the fragment, which no
 * request carries, and it leaves the address bar at once.
 */
export function SetPasswordPage() {
  const token = useSignal(new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '');
  if (window.location.hash) history.replaceState(null, '', window.location.pathname);
  const error = useSignal('');
  const fields = useSignal<Record<string, string[]>>({});
  const done = useSignal(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const password = String(form.get('password') ?? '');
    error.value = '';
    fields.value = {};
    if (password !== String(form.get('repeat') ?? '')) {
      fields.value = { repeat: ['The two passwords differ'] };
      return;
    }
    try {
      await api('/password', { body: { token: token.value, password } });
      done.value = true;
    } catch (x) {
      error.value = x instanceof ApiError ? x.message : String(x);
      if (x instanceof ApiError) fields.value = x.fields;
    }
  };
  return (
    <main id="main" class="narrow">
      <PageTitle title="Set your password">Set your password</PageTitle>
      {done.value ? (
        <>
          <Notice kind="ok">Password set.</Notice>
          <button type="button" class="primary" onClick={() => navigate('/dashboard/')}>
            Go to sign in
          </button>
        </>
      ) : token.value ? (
        <form onSubmit={submit} class="stack">
          <label>
            New password
            <input
              name="password"
              type="password"
              autocomplete="new-password"
              minLength={10}
              required
              aria-describedby="pw-hint pw-err"
            />
          </label>
          <span id="pw-hint" class="hint">
            At least 10 characters.
          </span>
          <FieldError id="pw-err" messages={fields.value.password} />
          <label>
            Repeat password
            <input name="repeat" type="password" autocomplete="new-password" required aria-describedby="repeat-err" />
          </label>
          <FieldError id="repeat-err" messages={fields.value.repeat} />
          {error.value ? <Notice kind="error">{error.value}</Notice> : null}
          <button type="submit" class="primary">
            Set password
          </button>
        </form>
      ) : (
        <Notice kind="error">This page needs the link you were given (it ends in #token=…).</Notice>
      )}
    </main>
  );
}
