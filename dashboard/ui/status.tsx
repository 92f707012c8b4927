import { statusLabel } from '../format.js';

/** A payment or delivery status as a coloured word (the word carries the meaning; colour only helps). */
export function Status({ status, detail }: { status: string; detail?: string | undefined }) {
  return (
    <span class={`status s-${status}`} data-status={status}>
      {statusLabel(status)}
      {detail && detail !== 'none' ? <span class="detail"> ({statusLabel(detail)})</span> : null}
    </span>
  );
}
