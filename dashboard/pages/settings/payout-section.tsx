import { useSignal } from '@preact/signals';
import { ApiError, api, m } from '../../api.js';
import { FieldError, Notice } from '../../ui/notice.js';
import type { Settings } from './types.js';

/**
 * The EVM payout address: where every forwarder of this merchant's payments sends its funds. Owners set or replace
 * it; a contract is accepted with the service's warning (a Safe is a fine payout).
 */
export function PayoutSection({
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
  const errors = useSignal<string[] | undefined>(undefined);
  const saved = useSignal<{ text: string; warnings: string[] } | null>(null);
  if (s.mode === 'test') return <p>Test merchants are paid on the sandbox chain and use no payout address.</p>;
  const save = async (e: Event) => {
    e.preventDefault();
    errors.value = undefined;
    saved.value = null;
    const address = String(new FormData(e.currentTarget as HTMLFormElement).get('payout') ?? '');
    try {
      const r = await api<{ address: string; warnings: string[] }>(m(merchantId, '/payout'), {
        method: 'PUT',
        body: { address },
      });
      saved.value = { text: `Payout address saved: ${r.address}`, warnings: r.warnings };
      onSaved();
    } catch (x) {
      errors.value = x instanceof ApiError ? (x.fields.address ?? [x.message]) : [String(x)];
    }
  };
  const nets = s.forwarder_networks;
  return (
    <>
      {s.payout ? (
        <p>
          Payout address:{' '}
          <span class="mono wrap" data-field="payout">
            {s.payout.address}
          </span>
        </p>
      ) : (
        <p>No payout address: live EVM payments go to addresses of your extended public key.</p>
      )}
      <p class="hint">
        {nets.length
          ? `When both are set, the payout address wins on ${nets.join(', ')} (networks with a forwarder factory): each payment there pays a forwarder that can only send to it. Elsewhere the extended public key is used.`
          : 'No network has a forwarder factory yet (forwarderFactory in CHAINS_CONFIG): payments use the extended public key.'}{' '}
        Changing it moves only later payments.
      </p>
      {saved.value ? (
        <Notice kind="ok">
          {saved.value.text}
          {saved.value.warnings.map((w) => (
            <span key={w} class="warn">
              {' '}
              Warning: {w}
            </span>
          ))}
        </Notice>
      ) : null}
      {owner ? (
        <form class="stack" onSubmit={save}>
          <label>
            Payout address (EVM)
            <input
              name="payout"
              spellcheck={false}
              autocomplete="off"
              placeholder="0x…"
              defaultValue={s.payout?.address ?? ''}
              aria-describedby="payout-err payout-hint"
            />
          </label>
          <span class="hint" id="payout-hint">
            An address you control on every network above, EIP-55 checksummed as your wallet shows it.
          </span>
          <FieldError id="payout-err" messages={errors.value} />
          <div class="actions">
            <button type="submit">{s.payout ? 'Replace payout address' : 'Save payout address'}</button>
          </div>
        </form>
      ) : null}
    </>
  );
}
