import { useSignal } from '@preact/signals';
import { t } from '../i18n.js';

/** Copies `text` and says so for a moment; the label names what is copied (icon buttons need a name). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const copied = useSignal(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Clipboard API refused (permissions, http): the text is selectable on screen anyway.
      return;
    }
    copied.value = true;
    setTimeout(() => {
      copied.value = false;
    }, 1500);
  };
  return (
    <button type="button" class="copy" aria-label={copied.value ? `${label}: ${t('copied')}` : label} onClick={copy}>
      {copied.value ? (
        <svg viewBox="0 0 24 24" aria-hidden="true">
          <path d="M5 12l5 5 9-10" />
        </svg>
      ) : (
        <svg viewBox="0 0 24 24" aria-hidden="true">
          <rect x="8" y="8" width="12" height="12" rx="2" />
          <path d="M4 16V6a2 2 0 0 1 2-2h10" />
        </svg>
      )}
    </button>
  );
}
