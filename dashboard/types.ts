/**
 * Shapes of the dashboard API's answers, imported type-only from the API that builds them
 * (dashboard-api/view-types.ts): the bundle carries none of it, and a changed answer fails `tsc` in the page.
 */
export type { AssetOption, Attempt, Delivery, PaymentRow } from '../dashboard-api/view-types.js';
