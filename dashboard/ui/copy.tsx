import { useSignal } from '@preact/signals';

/**
 * Copies `text` to the clipboard and says so (politely, for screen readers). `label` names what is copied, so
 * several copy buttons on one row stay distinguishable ("Copy payment id").
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const done = useSignal<'' | 'Copied' | 'Copy failed'>('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      done.value = 'Copied';
    } catch {
      done.value = 'Copy failed';
    }
    setTimeout(() => (done.value = ''), 2000);
  };
  return (
    <>
      <button type="button" class="small" onClick={copy} aria-label={label}>
        Copy
      </button>
      <span class="sr-only" role="status">
        {done.value}
      </span>
      {done.value ? (
        <span class="muted" aria-hidden="true">
          {done.value}
        </span>
      ) : null}
    </>
  );
}
