import type { PaymentDetail } from '../../dashboard-api/view-types.js';
import { ApiError, api, m } from '../api.js';
import { money } from '../format.js';

const DAY = 86_400_000;
/** The deadlines offered for "ask for the rest", in days; the service refuses more than 30 (core/payments/ask-rest.ts). */
const REST_DAYS = [1, 2, 3, 7, 14, 30];

/** What the exception actions read of a payment (GET /merchants/{id}/payments/{payment_id}). */
export type ExceptionFacts = Pick<
  PaymentDetail['payment'],
  'payment_id' | 'payment_status' | 'actually_paid' | 'pay_currency' | 'overpaid_by' | 'underpaid_by'
>;

/** A 422's field messages in the notice itself ("deadline: Must be ..."), not only "Validation failed". */
function withFields(e: unknown): unknown {
  if (!(e instanceof ApiError) || Object.keys(e.fields).length === 0) return e;
  const text = Object.entries(e.fields)
    .map(([k, v]) => `${k}: ${v.join(' ')}`)
    .join('; ');
  return new ApiError(text, e.status, e.fields);
}

/** The optional two-factor field every action carries (the service asks for it where the merchant requires it). */
const CodeField = () => (
  <label>
    Two-factor code (if required)
    <input name="code" inputMode="numeric" autocomplete="one-time-code" maxLength={40} />
  </label>
);

function codeOf(f: FormData): Record<string, string> {
  const code = String(f.get('code') ?? '').trim();
  return code ? { code } : {};
}

/**
 * An owner's ways out of a payment that was not paid exactly (issue 30 item 5): "Accept as paid" for a partly or
 * late paid one, "Ask for the rest" (the same address keeps taking the exact remainder until a deadline, and the
 * customer is mailed) for a partly paid one, and "Refund the excess" of an overpaid one (a refund of exactly the
 * excess: the service's default amount for an overpaid payment).
 */
export function PaymentExceptions(props: {
  merchantId: string;
  p: ExceptionFacts;
  owner: boolean;
  act: (work: () => Promise<unknown>, done: string) => Promise<void>;
}) {
  const { merchantId, p } = props;
  const path = (s: string) => m(merchantId, `/payments/${encodeURIComponent(p.payment_id)}/${s}`);
  // Exact text, no float: something was received when any digit is not zero.
  const received = /[1-9]/.test(p.actually_paid);
  const acceptable =
    received && (p.payment_status === 'partially_paid' || ['expired', 'failed'].includes(p.payment_status));
  const askable = p.payment_status === 'partially_paid' && p.underpaid_by !== null;
  const excess = p.payment_status === 'finished' && p.overpaid_by !== null;
  if (!props.owner || !(acceptable || askable || excess)) return null;
  const submit = (e: Event, work: (f: FormData) => Promise<unknown>, done: string) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    void props.act(
      () =>
        work(f)
          .then(() => form.reset())
          .catch((x: unknown) => Promise.reject(withFields(x))),
      done,
    );
  };
  return (
    <section aria-labelledby="exceptions-h">
      <h2 id="exceptions-h">Resolve this payment</h2>
      {acceptable ? (
        <form
          class="inline-form"
          aria-label="Accept as paid"
          onSubmit={(e) => submit(e, (f) => api(path('accept'), { body: codeOf(f) }), 'Payment accepted as paid')}
        >
          <p>
            Received {money(p.actually_paid, p.pay_currency)}
            {p.underpaid_by ? `, ${money(p.underpaid_by, p.pay_currency)} short` : ''}. Accepting finishes it.
          </p>
          <CodeField />
          <button type="submit" class="primary">
            Accept as paid
          </button>
        </form>
      ) : null}
      {askable ? (
        <form
          class="inline-form"
          aria-label="Ask for the rest"
          onSubmit={(e) =>
            submit(
              e,
              (f) =>
                api(path('ask-rest'), {
                  body: {
                    deadline: new Date(Date.now() + Number(f.get('days') ?? 1) * DAY).toISOString(),
                    ...codeOf(f),
                  },
                }),
              'The customer is asked for the rest',
            )
          }
        >
          <p>
            The customer can send the remaining {money(p.underpaid_by as string, p.pay_currency)} to the same address
            until the deadline, and is e-mailed so.
          </p>
          <label>
            Deadline
            <select name="days">
              {REST_DAYS.map((d) => (
                <option key={d} value={d}>
                  in {d} day{d === 1 ? '' : 's'}
                </option>
              ))}
            </select>
          </label>
          <CodeField />
          <button type="submit" class="primary">
            Ask for the rest
          </button>
        </form>
      ) : null}
      {excess ? (
        <form
          class="inline-form"
          aria-label="Refund the excess"
          onSubmit={(e) =>
            submit(
              e,
              (f) =>
                api(path('refunds'), {
                  // No amount: the service refunds exactly the excess of an overpaid payment.
                  body: { address: String(f.get('address') ?? '').trim(), ...codeOf(f) },
                }),
              'Refund of the excess created: send it from your wallet to the address',
            )
          }
        >
          <p>Overpaid by {money(p.overpaid_by as string, p.pay_currency)}.</p>
          <label>
            Customer’s address
            <input name="address" autocomplete="off" spellcheck={false} required />
          </label>
          <CodeField />
          <button type="submit" class="primary">
            Refund the excess ({money(p.overpaid_by as string, p.pay_currency)})
          </button>
        </form>
      ) : null}
    </section>
  );
}
