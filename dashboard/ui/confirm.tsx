import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';

/**
 * A button that asks first: a modal `<dialog>` (focus moves into it, Escape cancels, focus returns) says what will
 * happen and offers the confirming button and Cancel.
 */
export function ConfirmButton(props: {
  label: string;
  title: string;
  confirmLabel: string;
  children: ComponentChildren;
  onConfirm: () => void | Promise<void>;
  danger?: boolean;
  disabled?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const close = () => dialog.current?.close();
  return (
    <>
      <button
        type="button"
        class={props.danger ? 'danger' : ''}
        disabled={props.disabled}
        onClick={() => {
          dialog.current?.showModal();
          // Focus starts on the confirming button even when the body holds a control (a choice to make first).
          confirm.current?.focus();
        }}
      >
        {props.label}
      </button>
      <dialog ref={dialog} aria-labelledby={`${props.title.replace(/\W+/g, '-')}-t`}>
        <h2 id={`${props.title.replace(/\W+/g, '-')}-t`}>{props.title}</h2>
        <div class="dialog-body">{props.children}</div>
        <div class="actions">
          <button
            ref={confirm}
            type="button"
            class={props.danger ? 'danger' : 'primary'}
            onClick={async () => {
              close();
              await props.onConfirm();
            }}
          >
            {props.confirmLabel}
          </button>
          <button type="button" onClick={close}>
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}
