/**
 * Type-level proof, checked by `tsc --noEmit` (not run by vitest): a view typed from its response schema (`ViewOf`)
 * refuses a field the schema lacks, a missing field and a wrong type. Each `@ts-expect-error` fails tsc as soon as
 * the mismatch it marks stops being an error, so loosening `ViewOf` breaks the build.
 */
import type { reusableLinkSchema } from './link-view-schemas.js';
import type { paymentStatusViewSchema, ViewOf } from './payment-schemas.js';
import type { paymentStatusView } from './payment-views.js';

type StatusView = ViewOf<typeof paymentStatusViewSchema>;

// The builder's declared answer is the schema's: the two cannot drift apart.
export const sameType: StatusView = {} as ReturnType<typeof paymentStatusView>;

declare const good: StatusView;

// @ts-expect-error a field the schema does not have
export const extraField: StatusView = { ...good, surprise: 1 };

// @ts-expect-error a field the schema requires is missing
export const missingField: StatusView = (({ payment_status: _s, ...rest }) => rest)(good);

// @ts-expect-error a status outside the schema's enum
export const wrongStatus: StatusView = { ...good, payment_status: 'paid' };

// @ts-expect-error a link's `active` is a boolean, not the number the table stores
export const wrongType: ViewOf<typeof reusableLinkSchema>['active'] = 1;
