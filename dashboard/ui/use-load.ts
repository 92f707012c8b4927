import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { ApiError } from '../api.js';

/**
 * Loads data for a page and reloads it when `deps` change or `reload()` is called; `error` holds the service's
 * message. Answers that arrive after the page moved on are dropped.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const data = useSignal<T | null>(null);
  const error = useSignal('');
  const version = useSignal(0);
  useEffect(() => {
    let current = true;
    error.value = '';
    load().then(
      (v) => {
        if (current) data.value = v;
      },
      (e) => {
        if (current) error.value = e instanceof ApiError ? e.message : String(e);
      },
    );
    return () => {
      current = false;
    };
  }, [...deps, version.value]);
  return { data, error, reload: () => (version.value += 1) };
}
