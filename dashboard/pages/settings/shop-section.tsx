import { useSignal } from '@preact/signals';
import { ApiError, api, m } from '../../api.js';
import { me } from '../../session.js';
import { FieldError, Notice } from '../../ui/notice.js';
import type { Settings } from './types.js';

/** The shop's name, default price currency and the drop-in's allowed origins; owners change them. */
export function ShopSection({
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
      onSaved();
    } catch (x) {
      notice.value = { kind: 'error', text: x instanceof ApiError ? x.message : String(x) };
      if (x instanceof ApiError) fields.value = x.fields;
    }
  };
  const originErrors = Object.entries(fields.value)
    .filter(([k]) => k.startsWith('allowed_origins'))
    .flatMap(([k, v]) => v.map((msg) => `${k.replace(/^allowed_origins\.?/, 'line ')}: ${msg}`));
  return (
    <>
      {notice.value ? <Notice kind={notice.value.kind}>{notice.value.text}</Notice> : null}
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
    </>
  );
}
