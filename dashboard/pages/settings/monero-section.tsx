import { useSignal } from '@preact/signals';
import { ApiError, api, m } from '../../api.js';
import { FieldError, Notice } from '../../ui/notice.js';
import type { Settings } from './types.js';

/**
 * Monero: the wallet's primary address and private view key (sees incoming payments, cannot spend). The service checks
 * that the key belongs to the address and refuses a spend key or seed; the saved key is never shown again.
 */
export function MoneroSection({
  merchantId,
  s,
  owner,
  onSaved,
}: {
  merchantId: string;
  s: Settings;
  owner: boolean;
  onSaved: () => void;
}) {
  const errors = useSignal<Record<string, string[]>>({});
  const saved = useSignal<{ first_subaddress: string } | null>(null);
  if (s.mode === 'test') return <p>Test merchants are paid on the sandbox chain and use no Monero keys.</p>;
  const submit = async (e: Event) => {
    e.preventDefault();
    errors.value = {};
    saved.value = null;
    const form = e.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    try {
      saved.value = await api(m(merchantId, '/monero-keys'), {
        method: 'PUT',
        body: { address: String(data.get('address') ?? ''), view_key: String(data.get('view_key') ?? '') },
      });
      form.reset();
      onSaved();
    } catch (x) {
      // A field's message where the service named one; anything else (a wallet another merchant has) under the key.
      const fields = x instanceof ApiError ? x.fields : {};
      errors.value =
        Object.keys(fields).length > 0 ? fields : { view_key: [x instanceof Error ? x.message : String(x)] };
    }
  };
  return (
    <>
      {s.monero ? (
        <p>
          Registered: <span class="mono wrap">{s.monero.address}</span>. First subaddress (account 0, index 1):{' '}
          <span class="mono wrap">{s.monero.first_subaddress}</span>; the next payment uses index {s.monero.next_index}.
        </p>
      ) : (
        <p>No Monero address registered: live XMR payments cannot be created yet.</p>
      )}
      {saved.value ? (
        <Notice kind="ok">
          Monero address and view key saved. Check that your wallet shows subaddress 1:{' '}
          <span class="mono wrap">{saved.value.first_subaddress}</span>
        </Notice>
      ) : null}
      {owner ? (
        <form class="stack" onSubmit={submit}>
          <label>
            Primary address
            <input name="address" spellcheck={false} autocomplete="off" aria-describedby="xmr-address-err" />
          </label>
          <FieldError id="xmr-address-err" messages={errors.value.address} />
          <label>
            Private view key
            <input
              name="view_key"
              type="password"
              spellcheck={false}
              autocomplete="off"
              aria-describedby="xmr-key-err xmr-key-hint"
            />
          </label>
          <span class="hint" id="xmr-key-hint">
            64 hexadecimal digits (wallet: Settings, Seed &amp; keys). Never the spend key or the seed: they are
            refused.
          </span>
          <FieldError id="xmr-key-err" messages={errors.value.view_key} />
          <div class="actions">
            <button type="submit">Save Monero keys</button>
          </div>
        </form>
      ) : null}
    </>
  );
}
