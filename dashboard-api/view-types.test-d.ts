/**
 * Type-level proof, checked by `tsc --noEmit` (not run by vitest): the dashboard's view types are the return types
 * of the functions that build the answers (view-types.ts), so a page cannot read a field the API does not send, and
 * a builder that drops or retypes a field the page reads fails here and in the page. Each `@ts-expect-error` fails
 * tsc as soon as the mismatch it marks stops being an error.
 */
import type { balanceView } from './routes/balances/balances.js';
import type {
  AssetOption,
  Balance,
  Delivery,
  LinkDetail,
  MailEntry,
  Me,
  Overview,
  PaymentDetail,
  PaymentRow,
  Settings,
} from './view-types.js';
import type { paymentRowView } from './views.js';

// The named type is the builder's answer, both ways.
export const sameRow: PaymentRow = {} as ReturnType<typeof paymentRowView>;
export const sameBalance: ReturnType<typeof balanceView> = {} as Balance;

declare const row: PaymentRow;
declare const detail: PaymentDetail;

// @ts-expect-error a field the builder does not make: a page reading it fails tsc
export const surprise = row.surprise;

// @ts-expect-error an exact amount is a decimal string, never a number
export const paidAsNumber: number = row.actually_paid;

// @ts-expect-error the overview's periods are the three the page labels
export const badPeriod: Overview['periods'][number]['period'] = 'year';

// @ts-expect-error a member's role is one of the three roles
export const badRole: Me['merchants'][number]['role'] = 'admin';

// @ts-expect-error an asset option's `test_only` is a boolean
export const testOnly: AssetOption['test_only'] = 'yes';

// @ts-expect-error a delivery's attempts carry the response code as a number or null
export const code: Delivery['attempts'][number]['response_code'] = '200';

// The payment's page reads its decimals and the refunds' send QR from the same answer.
export const decimals: number = detail.payment.decimals;
export const sendQr: string | null = detail.refunds[0]?.send_qr ?? null;

// @ts-expect-error a link's paid total arrives as a JSON number (its schema's type), never a string
export const paidTotal: LinkDetail['link']['totals'][number]['paid_amount'] = '1.5';

// @ts-expect-error Settings' Monero wallet never carries the view key
export const viewKey = ({} as NonNullable<Settings['monero']>).view_key;

// @ts-expect-error the mail log's attempts carry the relay's code as a number or null
export const mailCode: MailEntry['attempt_log'][number]['code'] = '250';
