import { useSignal } from '@preact/signals';
import type { KeyPreview } from '../../../dashboard-api/view-types.js';
import { ApiError, api, m } from '../../api.js';
import { FieldError, Notice } from '../../ui/notice.js';
import { chainWords, type Derived, type Settings, type UtxoKey } from './types.js';

function Addresses({ list }: { list: Derived[] }) {
  return (
    <ol class="addresses" start={0}>
      {list.map((a) => (
        <li key={a.index} class="mono">
          {a.path}: {a.address}
        </li>
      ))}
    </ol>
  );
}

/**
 * One account key: paste, compare the first three addresses with the wallet, then save (the admin CLI's
 * `xpub set` checks and first-address confirmation). `chain` `evm` serves every EVM network; btc, ltc and doge their
 * own chain. The EVM form keeps its plain words; the others name their chain.
 */
export function KeySection({
  merchantId,
  chain,
  registered,
  path,
  owner,
  onSaved,
}: {
  merchantId: string;
  chain: 'evm' | UtxoKey['chain'];
  registered: { xpub: string; addresses: Derived[]; next_index: number } | null;
  path: string;
  owner: boolean;
  onSaved: () => void;
}) {
  const preview = useSignal<KeyPreview | null>(null);
  const errors = useSignal<string[] | undefined>(undefined);
  const saved = useSignal('');
  const words = chain === 'evm' ? null : chainWords(chain);
  // The EVM form keeps the ids it always had (its hooks in browser runs).
  const id = chain === 'evm' ? 'xpub' : `key-${chain}`;
  const check = async (e: Event) => {
    e.preventDefault();
    errors.value = undefined;
    saved.value = '';
    const xpub = String(new FormData(e.currentTarget as HTMLFormElement).get('xpub') ?? '');
    try {
      preview.value = await api(m(merchantId, '/xpub/preview'), { body: { xpub, chain } });
    } catch (x) {
      preview.value = null;
      errors.value = x instanceof ApiError ? (x.fields.xpub ?? [x.message]) : [String(x)];
    }
  };
  const save = async () => {
    if (!preview.value) return;
    try {
      await api(m(merchantId, '/xpub'), { method: 'PUT', body: { xpub: preview.value.xpub, chain } });
      saved.value = words ? `${words.name} key saved` : 'Extended public key saved';
      preview.value = null;
      onSaved();
    } catch (x) {
      errors.value = [x instanceof ApiError ? x.message : String(x)];
    }
  };
  return (
    <>
      {registered ? (
        <>
          <p>
            Registered: <span class="mono wrap">{registered.xpub}</span> (next payment uses child 0/
            {registered.next_index})
          </p>
          <Addresses list={registered.addresses} />
        </>
      ) : (
        <p>
          {words
            ? `No ${words.name} key registered: live ${words.name} payments cannot be created yet.`
            : 'No extended public key registered: live EVM payments cannot be created yet.'}
        </p>
      )}
      {saved.value ? <Notice kind="ok">{saved.value}</Notice> : null}
      {owner ? (
        <form class="stack" onSubmit={check}>
          <label>
            {words ? `${words.name} account key (${words.forms})` : 'Extended public key (xpub)'}
            <textarea
              name="xpub"
              rows={2}
              spellcheck={false}
              autocomplete="off"
              aria-describedby={`${id}-err ${id}-hint`}
            />
          </label>
          <span class="hint" id={`${id}-hint`}>
            The account key {path} as your wallet exports it. Never paste a private key: it is refused.
          </span>
          <FieldError id={`${id}-err`} messages={errors.value} />
          <div class="actions">
            <button type="submit">{words ? `Show ${words.name} addresses` : 'Show addresses'}</button>
          </div>
        </form>
      ) : null}
      {preview.value ? (
        <section class="preview" aria-label={words ? `${words.name} addresses to compare` : 'Addresses to compare'}>
          <p>Check that your wallet shows these first three receive addresses before saving:</p>
          <Addresses list={preview.value.addresses} />
          {preview.value.depth !== 3 ? (
            <Notice kind="error">
              This key is at depth {preview.value.depth}; wallets export the account key {preview.value.path} at depth
              3.
            </Notice>
          ) : null}
          <button type="button" class="primary" onClick={save}>
            {words ? `They match: save the ${words.name} key` : 'They match: save the key'}
          </button>
        </section>
      ) : null}
    </>
  );
}

/** The live merchant's account keys: EVM, then each Bitcoin-family chain. */
export function KeysSection({
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
  if (s.mode === 'test') return <p>Test merchants are paid on the sandbox chain and use no extended public key.</p>;
  return (
    <>
      <KeySection
        merchantId={merchantId}
        chain="evm"
        registered={s.xpub}
        path="m/44'/60'/0'"
        owner={owner}
        onSaved={onSaved}
      />
      {s.utxo_keys.map((k) => (
        <section key={k.chain} aria-labelledby={`key-${k.chain}-h`}>
          <h3 id={`key-${k.chain}-h`}>{chainWords(k.chain).name}</h3>
          <KeySection
            merchantId={merchantId}
            chain={k.chain}
            registered={k.xpub ? { xpub: k.xpub, addresses: k.addresses, next_index: k.next_index } : null}
            path={k.path}
            owner={owner}
            onSaved={onSaved}
          />
        </section>
      ))}
    </>
  );
}
