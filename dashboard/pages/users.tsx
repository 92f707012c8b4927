import { useSignal } from '@preact/signals';
import type { Invited, Member } from '../../dashboard-api/view-types.js';
import { ApiError, api, m } from '../api.js';
import { when } from '../format.js';
import { membership } from '../session.js';
import { ConfirmButton } from '../ui/confirm.js';
import { DataTable } from '../ui/data-table.js';
import { FieldError, Notice } from '../ui/notice.js';
import { PageTitle } from '../ui/page.js';
import { SecretOnce } from '../ui/secret-once.js';
import { useLoad } from '../ui/use-load.js';
import { RequireTwoFactor, TwoFactorSection } from './two-factor.js';

type Note = { kind: 'ok' | 'error'; text: string } | null;

/** One role change offered for a member: "Make x an owner", "a viewer", "a cashier". */
function RoleButton({
  user,
  to,
  act,
  merchantId,
}: {
  user: Member;
  to: Member['role'];
  act: (work: () => Promise<unknown>, done: string) => Promise<void>;
  merchantId: string;
}) {
  return (
    <button
      type="button"
      onClick={() =>
        act(() => api(m(merchantId, `/users/${user.user_id}`), { method: 'PATCH', body: { role: to } }), 'Role changed')
      }
    >
      {`Make ${user.email} ${to === 'owner' ? 'an' : 'a'} ${to}`}
    </button>
  );
}

/** The signed-in user's own password: the current one, then the new one. Other sessions end. */
function ChangePassword() {
  const note = useSignal<Note>(null);
  const fields = useSignal<Record<string, string[]>>({});
  return (
    <section aria-labelledby="pw-h">
      <h2 id="pw-h">Your password</h2>
      {note.value ? <Notice kind={note.value.kind}>{note.value.text}</Notice> : null}
      <form
        class="filters"
        onSubmit={async (e) => {
          e.preventDefault();
          const form = e.currentTarget as HTMLFormElement;
          const f = new FormData(form);
          note.value = null;
          fields.value = {};
          try {
            await api('/account/password', {
              body: { current_password: String(f.get('current')), new_password: String(f.get('next')) },
            });
            form.reset();
            note.value = { kind: 'ok', text: 'Password changed; your other sessions were signed out.' };
          } catch (err) {
            if (err instanceof ApiError) fields.value = err.fields;
            note.value = { kind: 'error', text: err instanceof ApiError ? err.message : String(err) };
          }
        }}
      >
        <label>
          Current password
          <input
            name="current"
            type="password"
            autocomplete="current-password"
            required
            aria-describedby="pw-current-e"
          />
          <FieldError id="pw-current-e" messages={fields.value.current_password} />
        </label>
        <label>
          New password
          <input
            name="next"
            type="password"
            autocomplete="new-password"
            minLength={10}
            required
            aria-describedby="pw-next-e"
          />
          <FieldError id="pw-next-e" messages={fields.value.new_password} />
        </label>
        <div class="actions">
          <button type="submit" class="primary">
            Change password
          </button>
        </div>
      </form>
    </section>
  );
}

/**
 * The merchant's members and their roles. Owners invite people (a one-time link to set a password, shown once, for
 * the owner to send), change roles and remove members; the only owner can be neither demoted nor removed.
 */
export function UsersPage({ merchantId }: { merchantId: string }) {
  const owner = membership(merchantId)?.role === 'owner';
  const users = useLoad(() => api<Member[]>(m(merchantId, '/users')), [merchantId]);
  const owners = users.data.value?.filter((u) => u.role === 'owner').length ?? 0;
  const note = useSignal<Note>(null);
  const link = useSignal<string | null>(null);
  const fields = useSignal<Record<string, string[]>>({});
  const act = async (work: () => Promise<unknown>, done: string) => {
    note.value = null;
    try {
      await work();
      note.value = { kind: 'ok', text: done };
      users.reload();
    } catch (e) {
      note.value = { kind: 'error', text: e instanceof ApiError ? e.message : String(e) };
    }
  };
  return (
    <>
      <PageTitle title="Users">Users</PageTitle>
      {note.value ? <Notice kind={note.value.kind}>{note.value.text}</Notice> : null}
      {link.value ? (
        <SecretOnce label="Invitation link" secret={link.value} onDone={() => (link.value = null)} />
      ) : null}
      {owner ? (
        <form
          class="filters"
          aria-label="Invite a user"
          onSubmit={async (e) => {
            e.preventDefault();
            const form = e.currentTarget as HTMLFormElement;
            const f = new FormData(form);
            note.value = null;
            fields.value = {};
            try {
              const r = await api<Invited>(m(merchantId, '/users'), {
                body: { email: String(f.get('email')), role: String(f.get('role')) },
              });
              form.reset();
              link.value = r.invite_url;
              note.value = {
                kind: 'ok',
                text: r.invite_url
                  ? `${r.email} invited: send them the link (valid 24 hours, once).`
                  : `${r.email} already has a password: they sign in as before.`,
              };
              users.reload();
            } catch (err) {
              if (err instanceof ApiError) fields.value = err.fields;
              note.value = { kind: 'error', text: err instanceof ApiError ? err.message : String(err) };
            }
          }}
        >
          <label>
            Email
            <input name="email" type="email" required autocomplete="off" aria-describedby="inv-email-e" />
            <FieldError id="inv-email-e" messages={fields.value.email} />
          </label>
          <label>
            Role
            <select name="role">
              <option value="viewer">Viewer (reads everything, changes nothing)</option>
              <option value="owner">Owner (changes everything)</option>
              <option value="cashier">Cashier (sells at the counter)</option>
            </select>
          </label>
          <div class="actions">
            <button type="submit" class="primary">
              Invite
            </button>
          </div>
        </form>
      ) : null}
      {users.error.value ? <Notice kind="error">{users.error.value}</Notice> : null}
      {users.data.value ? (
        <DataTable caption="Users of this merchant">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Last sign-in</th>
              {owner ? <th scope="col">Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {users.data.value.map((u) => (
              <tr key={u.user_id} data-user={u.email}>
                <td>
                  {u.email}
                  {u.you ? ' (you)' : ''}
                  {u.password_set ? '' : ' (invited, no password yet)'}
                </td>
                <td data-field="role">{u.role}</td>
                <td>{u.last_sign_in_at ? when(u.last_sign_in_at) : 'never'}</td>
                {owner ? (
                  <td class="actions">
                    {/* The only owner can be neither demoted nor removed (the API answers 409): nothing to offer. */}
                    {u.role === 'owner' && owners === 1 ? (
                      <span class="muted">The only owner: make someone else an owner first</span>
                    ) : (
                      <>
                        <RoleButton
                          user={u}
                          to={u.role === 'owner' ? 'viewer' : 'owner'}
                          act={act}
                          merchantId={merchantId}
                        />
                        {/* Viewers and cashiers switch between the two: neither changes anything. */}
                        {u.role === 'owner' ? null : (
                          <RoleButton
                            user={u}
                            to={u.role === 'cashier' ? 'viewer' : 'cashier'}
                            act={act}
                            merchantId={merchantId}
                          />
                        )}
                        <ConfirmButton
                          label={`Remove ${u.email}`}
                          title={`Remove ${u.email}?`}
                          confirmLabel="Remove"
                          danger
                          onConfirm={() =>
                            act(() => api(m(merchantId, `/users/${u.user_id}`), { method: 'DELETE' }), 'User removed')
                          }
                        >
                          <p>They lose access to this merchant at once; their other merchants stay.</p>
                        </ConfirmButton>
                      </>
                    )}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </DataTable>
      ) : null}
      <ChangePassword />
      <TwoFactorSection />
      <RequireTwoFactor merchantId={merchantId} />
    </>
  );
}
