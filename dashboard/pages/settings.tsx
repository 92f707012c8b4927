import { useSignal } from '@preact/signals';
import { ApiError, api, m } from '../api.js';
import { loadMe, me, membership } from '../session.js';
import { DataTable } from '../ui/data-table.js';
import { FieldError, Notice } from '../ui/notice.js';
import { PageTitle } from '../ui/page.js';
import { useLoad } from '../ui/use-load.js';
import { UnderpaidToleranceSection } from './underpaid-tolerance.js';

interface Settings {
  name: string;
  mode: 'test' | 'live';
  allowed_origins: string[];
  /** The price currency of requests that name none, and the codes it may be. */
  default_currency: string;
  price_currencies: string[];
  xpub: { xpub: string; addresses: Derived[]; next_index: number } | null;
  /** Bitcoin, Litecoin and Dogecoin: one account key each, read for the chain's node network. */
  utxo_keys: UtxoKey[];
  payout: { chain: 'evm'; address: string } | null;
  /** EVM networks with a forwarder factory: there the payout wins over the xpub. */
  forwarder_networks: string[];
  /** Monero: the primary address and subaddress 1 (the view key is never sent back). */
  monero: { address: string; first_subaddress: string; next_index: number } | null;
}
interface UtxoKey {
  chain: 'btc' | 'ltc' | 'doge';
  network: string;
  path: string;
  xpub: string | null;
  addresses: Derived[];
  next_index: number;
}
/** What each key is called on the page, and what wallets export it as (the admin CLI's `xpub set` help). */
const CHAIN_WORDS = {
  btc: { name: 'Bitcoin', forms: 'zpub or xpub' },
  ltc: { name: 'Litecoin', forms: 'zpub, Ltub or xpub' },
  doge: { name: 'Dogecoin', forms: 'dgub or xpub' },
} as const;
interface Derived {
  index: number;
  path: string;
  address: string;
}
interface Network {
  network: string;
  healthy: boolean;
  height: number | null;
  confirmations: number;
}

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

interface KeyPreview {
  xpub: string;
  depth: number;
  path: string;
  addresses: Derived[];
}

/**
 * One account key: paste, compare the first three addresses with the wallet, then save (the admin CLI's
 * `xpub set` checks and first-address confirmation). `chain` `evm` serves every EVM network; btc, ltc and doge their
 * own chain. The EVM form keeps its plain words; the others name their chain.
 */
function KeySection({
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
  const words = chain === 'evm' ? null : CHAIN_WORDS[chain];
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
function KeysSection({
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
          <h3 id={`key-${k.chain}-h`}>{CHAIN_WORDS[k.chain].name}</h3>
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

/**
 * Monero: the wallet's primary address and private view key (sees incoming payments, cannot spend). The service checks
 * that the key belongs to the address and refuses a spend key or seed; the saved key is never shown again.
 */
function MoneroSection({
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

/**
 * The EVM payout address: where every forwarder of this merchant's payments sends its funds. Owners set or replace
 * it; a contract is accepted with the service's warning (a Safe is a fine payout).
 */
function PayoutSection({
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

interface NewStore {
  merchant_id: string;
  name: string;
  mode: 'test' | 'live';
  secret_key: string;
  public_key: string;
  webhook_secret: string;
}

/**
 * Another store (merchant), as `admin merchant create` makes it, owned by the signed-in owner: its keys and webhook
 * secret are shown once, then it is in the Merchant switcher.
 */
function NewStoreSection() {
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

/**
 * Shop name, the drop-in's allowed origins, the xpub and payout address (live merchants), and the live networks'
 * health.
 */
export function SettingsPage({ merchantId }: { merchantId: string }) {
  const owner = membership(merchantId)?.role === 'owner';
  const settings = useLoad(() => api<Settings>(m(merchantId, '/settings')), [merchantId]);
  const networks = useLoad(() => api<Network[]>(m(merchantId, '/networks')), [merchantId]);
  const notice = useSignal<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const fields = useSignal<Record<string, string[]>>({});
  const save = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const origins = String(form.get('origins') ?? '')
      .split(/\s+/)
      .filter(Boolean);
    fields.value = {};
    try {
      const r = await api<{ name: string }>(m(merchantId, '/settings'), {
        method: 'PATCH',
        body: {
          name: String(form.get('name') ?? ''),
          allowed_origins: origins,
          default_currency: String(form.get('currency') ?? 'USD'),
        },
      });
      notice.value = { kind: 'ok', text: 'Settings saved' };
      // The switcher shows the new name.
      if (me.value)
        me.value = {
          ...me.value,
          merchants: me.value.merchants.map((x) => (x.merchant_id === merchantId ? { ...x, name: r.name } : x)),
        };
      settings.reload();
    } catch (x) {
      notice.value = { kind: 'error', text: x instanceof ApiError ? x.message : String(x) };
      if (x instanceof ApiError) fields.value = x.fields;
    }
  };
  const s = settings.data.value;
  const originErrors = Object.entries(fields.value)
    .filter(([k]) => k.startsWith('allowed_origins'))
    .flatMap(([k, v]) => v.map((msg) => `${k.replace(/^allowed_origins\.?/, 'line ')}: ${msg}`));
  return (
    <>
      <PageTitle title="Settings">Settings</PageTitle>
      {notice.value ? <Notice kind={notice.value.kind}>{notice.value.text}</Notice> : null}
      {settings.error.value ? <Notice kind="error">{settings.error.value}</Notice> : null}
      {s ? (
        <>
          <section aria-labelledby="shop-h">
            <h2 id="shop-h">Shop</h2>
            <form class="stack" onSubmit={save} key={`${s.name}|${s.allowed_origins.join(' ')}|${s.default_currency}`}>
              <label>
                Shop name
                <input name="name" defaultValue={s.name} readOnly={!owner} required aria-describedby="name-err" />
              </label>
              <FieldError id="name-err" messages={fields.value.name} />
              <label>
                Default price currency
                <select
                  name="currency"
                  defaultValue={s.default_currency}
                  disabled={!owner}
                  aria-describedby="currency-hint currency-err"
                >
                  {s.price_currencies.map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </select>
              </label>
              <span class="hint" id="currency-hint">
                Prices of payments, payment links and the drop-in that name no currency are in this one.
              </span>
              <FieldError id="currency-err" messages={fields.value.default_currency} />
              <label>
                Allowed origins for the drop-in (one per line)
                <textarea
                  name="origins"
                  rows={3}
                  readOnly={!owner}
                  defaultValue={s.allowed_origins.join('\n')}
                  aria-describedby="origins-hint origins-err"
                />
              </label>
              <span class="hint" id="origins-hint">
                Like https://shop.example.{' '}
                {s.mode === 'test'
                  ? 'A test merchant with none accepts any origin.'
                  : 'A live merchant with none accepts only this service’s own pages.'}
              </span>
              <FieldError id="origins-err" messages={originErrors.length ? originErrors : undefined} />
              {owner ? (
                <div class="actions">
                  <button type="submit" class="primary">
                    Save settings
                  </button>
                </div>
              ) : null}
            </form>
          </section>
          <section aria-labelledby="xpub-h">
            <h2 id="xpub-h">Receiving addresses</h2>
            <KeysSection merchantId={merchantId} s={s} owner={owner} onSaved={settings.reload} />
          </section>
          <section aria-labelledby="xmr-h">
            <h2 id="xmr-h">Monero (view key)</h2>
            <MoneroSection merchantId={merchantId} s={s} owner={owner} onSaved={settings.reload} />
          </section>
          <section aria-labelledby="payout-h">
            <h2 id="payout-h">Payout address</h2>
            <PayoutSection merchantId={merchantId} s={s} owner={owner} onSaved={settings.reload} />
          </section>
        </>
      ) : null}
      <UnderpaidToleranceSection merchantId={merchantId} owner={owner} />
      {owner ? <NewStoreSection /> : null}
      <section aria-labelledby="networks-h">
        <h2 id="networks-h">Live networks</h2>
        {networks.data.value?.length === 0 ? <p>No live network is configured (CHAINS_CONFIG).</p> : null}
        {networks.data.value?.length ? (
          <DataTable caption="Live networks and their health">
            <thead>
              <tr>
                <th scope="col">Network</th>
                <th scope="col">Health</th>
                <th scope="col" class="num">
                  Height
                </th>
                <th scope="col" class="num">
                  Confirmations
                </th>
              </tr>
            </thead>
            <tbody>
              {networks.data.value.map((n) => (
                <tr key={n.network}>
                  <th scope="row">{n.network}</th>
                  <td>
                    <span class={n.healthy ? 'status s-finished' : 'status s-failed'}>
                      {n.healthy ? 'healthy' : 'unreachable'}
                    </span>
                  </td>
                  <td class="num">{n.height ?? '—'}</td>
                  <td class="num">{n.confirmations}</td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        ) : null}
      </section>
    </>
  );
}
