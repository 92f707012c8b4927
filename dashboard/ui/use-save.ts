import { useSignal } from '@preact/signals';
import { ApiError } from '../api.js';

/**
 * A settings form's save: clears the last notice and field errors, runs `work`, then says `done`, or shows the
 * service's message with its per-field errors (422). `notice` and `fields` are what the page renders.
 */
export function useSave() {
  const notice = useSignal<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const fields = useSignal<Record<string, string[]>>({});
  const save = async (work: () => Promise<void>, done: string) => {
    notice.value = null;
    fields.value = {};
    try {
      await work();
      notice.value = { kind: 'ok', text: done };
    } catch (x) {
      notice.value = { kind: 'error', text: x instanceof ApiError ? x.message : String(x) };
      if (x instanceof ApiError) fields.value = x.fields;
    }
  };
  return { notice, fields, save };
}
