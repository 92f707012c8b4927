import { signal } from '@preact/signals';
import type { ComponentType } from 'preact';
import { t } from '../i18n.js';

/** Bumped whenever a chunk arrives: the dialog moves focus into a screen that just replaced its loading line. */
export const chunksLoaded = signal(0);

/**
 * A component whose code is a chunk loaded on first render (or earlier, by `preload()`), so the script that
 * shows the QR does not carry it. Until it is in: the loading line; while it cannot load (network gone):
 * `fallback`, which must need no chunk.
 */
export function lazy<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ComponentType<P>) {
  // The component once loaded, or the fallback once loading failed.
  const loaded = signal<ComponentType<P> | null>(null);
  let started = false;
  const preload = () => {
    if (started) return;
    started = true;
    load().then(
      (c) => {
        loaded.value = c;
        chunksLoaded.value++;
      },
      () => {
        // The next render tries again (the screen changing, say, once the network is back).
        started = false;
        loaded.value = fallback;
      },
    );
  };
  function Lazy(props: P) {
    const C = loaded.value;
    if (C !== fallback && C) return <C {...props} />;
    preload();
    return C ? (
      <C {...props} />
    ) : (
      <p class="muted" role="status">
        {t('loading')}
      </p>
    );
  }
  return Object.assign(Lazy, { preload });
}
