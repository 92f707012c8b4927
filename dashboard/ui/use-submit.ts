import { useSignal } from '@preact/signals';
import { ApiError } from '../api.js';

/**
 * A create form's submit: `busy` while it runs, a 422's messages per field in `errors` (each input wired to its
 * message by `field(name)`), any other failure's message in `failure`.
 */
export function useSubmit() {
  const errors = useSignal<Record<string, string[]>>({});
  const failure = useSignal('');
  const busy = useSignal(false);
  const run = async (work: () => Promise<void>) => {
    busy.value = true;
    errors.value = {};
    failure.value = '';
    try {
      await work();
    } catch (x) {
      if (x instanceof ApiError && Object.keys(x.fields).length > 0) errors.value = x.fields;
      else failure.value = x instanceof ApiError ? x.message : String(x);
    } finally {
      busy.value = false;
    }
  };
  const field = (name: string) => ({
    name,
    'aria-describedby': `${name}-err`,
    'aria-invalid': errors.value[name] ? ('true' as const) : undefined,
  });
  return { errors, failure, busy, run, field };
}
