import type { ComponentChildren } from 'preact';

/** A message in the flow of the page; errors are announced at once, the rest politely. */
export function Notice({ kind, children }: { kind: 'error' | 'ok' | 'info'; children: ComponentChildren }) {
  return (
    <p class={`notice ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}

/** The per-field messages of a 422 under its input. */
export function FieldError({ id, messages }: { id: string; messages: string[] | undefined }) {
  return messages?.length ? (
    <span class="field-error" id={id}>
      {messages.join('; ')}
    </span>
  ) : null;
}
