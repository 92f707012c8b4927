import { useSignal } from '@preact/signals';
import type { KeyView as Key } from '../../dashboard-api/view-types.js';
import { ApiError, api, m } from '../api.js';
import { when } from '../format.js';
import { membership } from '../session.js';
import { ConfirmButton } from '../ui/confirm.js';
import { DataTable } from '../ui/data-table.js';
import { Notice } from '../ui/notice.js';
import { PageTitle } from '../ui/page.js';
import { SecretOnce } from '../ui/secret-once.js';
import { useLoad } from '../ui/use-load.js';

const KIND = { secret: 'Secret (sk_, server)', public: 'Public (dk_, drop-in)' };

/**
 * API keys by prefix (the service keeps hashes only), with when each was last used; owners create, rotate and
 * deactivate them. A new key is shown once, on this page, until "Done".
 */
export function KeysPage({ merchantId }: { merchantId: string }) {
  const owner = membership(merchantId)?.role === 'owner';
  const keys = useLoad(() => api<Key[]>(m(merchantId, '/keys')), [merchantId]);
  const fresh = useSignal<{ kind: string; key: string } | null>(null);
  const grace = useSignal('24');
  const notice = useSignal<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const act = async (work: () => Promise<{ kind: string; key: string } | unknown>, done: string) => {
    notice.value = null;
    try {
      const r = await work();
      if (r && typeof r === 'object' && 'key' in r) fresh.value = r as { kind: string; key: string };
      notice.value = { kind: 'ok', text: done };
      keys.reload();
    } catch (e) {
      notice.value = { kind: 'error', text: e instanceof ApiError ? e.message : String(e) };
    }
  };
  return (
    <>
      <PageTitle title="API keys">API keys</PageTitle>
      {notice.value ? <Notice kind={notice.value.kind}>{notice.value.text}</Notice> : null}
      {fresh.value ? (
        <SecretOnce
          label={`New ${fresh.value.kind} key`}
          secret={fresh.value.key}
          onDone={() => {
            // "Key created" or "Key rotated" spoke of the secret just put away: both go together.
            fresh.value = null;
            notice.value = null;
          }}
        />
      ) : null}
      {owner ? (
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            const f = new FormData(e.currentTarget as HTMLFormElement);
            const body = { kind: String(f.get('kind')), label: String(f.get('label') ?? '') };
            void act(() => api(m(merchantId, '/keys'), { body }), 'Key created');
          }}
        >
          <label>
            Kind
            <select name="kind">
              <option value="secret">{KIND.secret}</option>
              <option value="public">{KIND.public}</option>
            </select>
          </label>
          <label>
            Label (optional)
            <input name="label" maxLength={60} autocomplete="off" />
          </label>
          <button type="submit" class="primary">
            Create key
          </button>
        </form>
      ) : null}
      {keys.error.value ? <Notice kind="error">{keys.error.value}</Notice> : null}
      {keys.data.value ? (
        <DataTable caption="API keys">
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Label</th>
              <th scope="col">Kind</th>
              <th scope="col">State</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              {owner ? <th scope="col">Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {keys.data.value.map((k) => (
              <tr key={k.id} data-key={k.id}>
                <td class="mono">{k.prefix}…</td>
                <td data-field="label">{k.label ?? ''}</td>
                <td>{KIND[k.kind]}</td>
                <td data-field="state">
                  {k.active
                    ? k.expires_at
                      ? `rotated: works until ${when(k.expires_at)}`
                      : 'active'
                    : `deactivated ${when(k.deactivated_at)}`}
                </td>
                <td>{when(k.created_at)}</td>
                <td data-field="last-used">{k.last_used_at ? when(k.last_used_at) : 'never'}</td>
                {owner ? (
                  <td class="actions">
                    {k.active ? (
                      <>
                        {k.expires_at ? null : (
                          <ConfirmButton
                            label={`Rotate ${k.prefix}…`}
                            title={`Rotate key ${k.prefix}…?`}
                            confirmLabel="Rotate"
                            onConfirm={() =>
                              act(
                                () =>
                                  api(m(merchantId, `/keys/${k.id}/rotate`), {
                                    body: { grace_hours: Number(grace.value) },
                                  }),
                                'Key rotated',
                              )
                            }
                          >
                            <p>
                              A new key (with the same label) replaces this one. Keep the old key working while you
                              deploy the new one:
                            </p>
                            <label>
                              Old key keeps working for
                              <select value={grace.value} onChange={(e) => (grace.value = e.currentTarget.value)}>
                                <option value="0">no time: stop it now</option>
                                <option value="1">1 hour</option>
                                <option value="24">24 hours</option>
                                <option value="72">3 days</option>
                                <option value="168">7 days</option>
                              </select>
                            </label>
                          </ConfirmButton>
                        )}
                        <ConfirmButton
                          label={`Deactivate ${k.prefix}…`}
                          title={`Deactivate key ${k.prefix}…?`}
                          confirmLabel="Deactivate"
                          danger
                          onConfirm={() =>
                            act(() => api(m(merchantId, `/keys/${k.id}/deactivate`), { body: {} }), 'Key deactivated')
                          }
                        >
                          <p>Requests with this key will be refused from now on. This cannot be undone.</p>
                        </ConfirmButton>
                      </>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </DataTable>
      ) : null}
      <p class="hint">"Last used" is recorded to the minute.</p>
    </>
  );
}
