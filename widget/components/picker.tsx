import { useComputed, useSignal } from '@preact/signals';
import { price } from '../format.js';
import { locale, t } from '../i18n.js';
import type { CheckoutState } from '../state.js';

/** The asset picker: search over code, name and network; assets the price does not reach are shown, disabled. */
export function Picker({ state }: { state: CheckoutState }) {
  const query = useSignal('');
  const list = useComputed(() => {
    const q = query.value.trim().toLowerCase();
    const all = state.currencies.value ?? [];
    return q ? all.filter((c) => `${c.code} ${c.name} ${c.network_name}`.toLowerCase().includes(q)) : all;
  });
  return (
    <section class="picker">
      <h3 id="sc-pick">{t('chooseCurrency')}</h3>
      <input
        class="search"
        type="search"
        aria-label={t('search')}
        placeholder={t('search')}
        value={query.value}
        onInput={(e) => {
          query.value = e.currentTarget.value;
        }}
      />
      <ul class="assets" aria-labelledby="sc-pick">
        {list.value.map((c) => (
          <li key={c.code}>
            <button
              type="button"
              class="asset"
              disabled={!c.payable || state.busy.value}
              onClick={() => state.choose(c.code)}
            >
              <img src={c.icon ?? state.api.base + (c.icon_url ?? '')} alt={c.code} width={28} height={28} />
              <span class="code">{c.ticker}</span>
              <span class="name">{c.name}</span>
              <span class="net">{c.network_name}</span>
              {!c.payable && (
                <span class="min">
                  {t('minimum', {
                    amount: price(c.min_price ?? '0', state.session.value?.currency ?? 'USD', locale.value),
                  })}
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
      {list.value.length === 0 && <p class="muted">{t('noMatch')}</p>}
    </section>
  );
}
