import { useSignal } from '@preact/signals';
import type { NewStore } from '../../../dashboard-api/view-types.js';
import { ApiError, api } from '../../api.js';
import { loadMe } from '../../session.js';
import { FieldError, Notice } from '../../ui/notice.js';

/**
 * Another store (merchant), as `admin merchant create` makes it, owned by the signed-in owner: its keys and webhook
 * secret are shown once, then it is in the Merchant switcher.
 */
export function NewStoreSection() {
  const made = useSignal<NewStore | null>(null);
  const errors = useSignal<Record<string, string[]>>({});
  const failure = useSignal('');
  const create = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    errors.value = {};
    failure.value = '';
    try {
      made.value = await api<NewStore>('/merchants', {
        body: { name: String(f.get('name') ?? ''), mode: String(f.get('mode') ?? '') },
      });
      form.reset();
      await loadMe();
    } catch (x) {
      if (x instanceof ApiError) errors.value = x.fields;
      failure.value = x instanceof ApiError ? x.message : String(x);
    }
  };
  const n = made.value;
  return (
    <section aria-labelledby="store-h">
      <h2 id="store-h">Another store</h2>
      {n ? (
        <section class="secret" aria-label="New store keys">
          <p>
            {n.name} ({n.mode}) is made, and you own it: <span class="mono">{n.merchant_id}</span>. Save these now, they
            are shown once.
          </p>
          <dl>
            <dt>Secret key</dt>
            <dd class="mono wrap" data-field="secret_key">
              {n.secret_key}
            </dd>
            <dt>Public key</dt>
            <dd class="mono wrap" data-field="public_key">
              {n.public_key}
            </dd>
            <dt>Webhook secret</dt>
            <dd class="mono wrap" data-field="webhook_secret">
              {n.webhook_secret}
            </dd>
          </dl>
          <button type="button" class="primary" onClick={() => (made.value = null)}>
            Done, I saved them
          </button>
        </section>
      ) : (
        <form class="stack" aria-label="Create another store" onSubmit={create}>
          {failure.value ? <Notice kind="error">{failure.value}</Notice> : null}
          <label>
            Store name
            <input name="name" required maxLength={200} aria-describedby="store-name-err" />
          </label>
          <FieldError id="store-name-err" messages={errors.value.name} />
          <label>
            Mode
            <select name="mode">
              <option value="test">Test (sandbox chain)</option>
              <option value="live">Live (real funds)</option>
            </select>
          </label>
          <div class="actions">
            <button type="submit">Create store</button>
          </div>
        </form>
      )}
    </section>
  );
}
