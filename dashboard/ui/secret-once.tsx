import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';

/**
 * The one screen that shows a new secret (API key, webhook secret): it is in this component's state only, gone
 * from the page once "Done" is pressed or the page is left, and never fetched again (the service keeps a hash).
 */
export function SecretOnce({ label, secret, onDone }: { label: string; secret: string; onDone: () => void }) {
  const copied = useSignal(false);
  const ref = useRef<HTMLElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <section class="secret" aria-label={label} tabIndex={-1} ref={ref}>
      <p>
        <strong>{label}</strong>: copy it now. It is shown once; the service keeps only a hash of it.
      </p>
      <code data-secret>{secret}</code>
      <div class="actions">
        <button
          type="button"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(secret);
              copied.value = true;
            } catch {
              copied.value = false;
            }
          }}
        >
          {copied.value ? 'Copied' : 'Copy'}
        </button>
        <button type="button" class="primary" onClick={onDone}>
          Done, I saved it
        </button>
      </div>
    </section>
  );
}
