import { signal } from '@preact/signals';
import { useRef } from 'preact/hooks';
import type { ClaimLink, PaymentRefund } from '../../dashboard-api/view-types.js';
import { api, m } from '../api.js';
import { when } from '../format.js';
import { ConfirmButton } from '../ui/confirm.js';
import { CopyButton } from '../ui/copy.js';

/**
 * Claim links made while this page is open, by refund id: the service shows a link once, when it is made (it keeps
 * only the token's hash), so after a reload they are gone.
 */
const madeLinks = signal<Record<string, ClaimLink>>({});

/** Keeps the claim link of an answer (a new refund, a new link) to show it for copying. */
export function rememberClaimLink(answer: unknown): void {
  const a = answer as { refund_id?: string; claim_link?: ClaimLink | null } | undefined;
  if (a?.refund_id && a.claim_link) madeLinks.value = { ...madeLinks.value, [a.refund_id]: a.claim_link };
}

/** The refund form's claim link fields: ask the customer for the address, and for how long the link works. */
export function ClaimLinkFields() {
  return (
    <>
      <label class="inline">
        <input type="checkbox" name="claim_link" />
        Ask the customer for the address with a claim link (mailed to the payment’s e-mail)
      </label>
      <label>
        Claim link valid for (hours, 1 to 720)
        <input name="claim_hours" type="number" min={1} max={720} step={1} placeholder="168" />
      </label>
    </>
  );
}

/** The create body's `claim_link` from the form, when asked. */
export function claimLinkBody(f: FormData): { claim_link?: { expires_in_hours?: number } } {
  if (!f.get('claim_link')) return {};
  const hours = String(f.get('claim_hours') ?? '').trim();
  return { claim_link: hours ? { expires_in_hours: Number(hours) } : {} };
}

/**
 * A refund's address step, in its row: the claim link just made (to copy), a customer's address waiting for the
 * owner's confirmation (with a fresh two-factor code where the merchant requires one), and a new claim link for a
 * refund still without a confirmed address. Nothing is sent until the address is confirmed.
 */
export function RefundClaim(props: {
  merchantId: string;
  refund: PaymentRefund;
  owner: boolean;
  act: (work: () => Promise<unknown>, done: string) => Promise<void>;
}) {
  const { merchantId, refund: r, owner } = props;
  const code = useRef<HTMLInputElement>(null);
  const made = madeLinks.value[r.refund_id];
  if (r.refund_status !== 'awaiting_address') return null;
  const unconfirmed = r.address !== null && !r.address_confirmed;
  return (
    <div class="refund-claim" data-claim={r.refund_id}>
      {unconfirmed ? (
        <p data-address-unconfirmed>
          <strong>Given by the customer, not confirmed:</strong> check it before confirming; nothing can be sent until
          you do.
        </p>
      ) : null}
      {made && r.address === null ? (
        <p>
          Claim link (shown once):{' '}
          <a class="mono wrap" href={made.url} data-claim-url>
            {made.url}
          </a>{' '}
          <CopyButton text={made.url} label="Copy claim link" />
          {made.emailed ? ' Mailed to the customer.' : ' Not mailed: hand it over yourself.'}
        </p>
      ) : r.address === null && r.claim_link_expires_at ? (
        <p class="muted">Claim link sent, valid until {when(r.claim_link_expires_at)}</p>
      ) : null}
      {owner && unconfirmed && r.address ? (
        <ConfirmButton
          label="Confirm address"
          title={`Confirm the address of refund ${r.refund_id}?`}
          confirmLabel="Confirm address"
          onConfirm={() =>
            props.act(() => {
              const c = code.current?.value.trim();
              return api(m(merchantId, `/refunds/${r.refund_id}/address`), {
                body: { address: r.address, ...(c ? { code: c } : {}) },
              });
            }, 'Address confirmed: the refund is ready to send')
          }
        >
          <p>
            The refund will go to <span class="mono wrap">{r.address}</span>, and this address can never change
            afterwards. Compare it with the customer’s by another channel if the amount matters.
          </p>
          <label>
            Two-factor code (if required)
            <input ref={code} inputMode="numeric" autocomplete="one-time-code" maxLength={40} />
          </label>
        </ConfirmButton>
      ) : null}
      {owner ? (
        <button
          type="button"
          onClick={() =>
            props.act(
              () => api(m(merchantId, `/refunds/${r.refund_id}/claim-link`), { body: {} }).then(rememberClaimLink),
              'Claim link made: copy it now, it is shown once',
            )
          }
        >
          New claim link
        </button>
      ) : null}
    </div>
  );
}
