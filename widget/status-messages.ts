import { addEnglish } from './i18n.js';

/**
 * The English of every status after `waiting`: they come with live status (live.ts) and simulate, which bring
 * them; a new payment always starts `waiting`. The hosted page, which may open on any status, has them at once.
 */
export const enStatus = {
  confirming: 'Payment seen, confirming: {n} of {m}',
  partially_paid: 'Partly paid: send the remaining {amount}',
  finished: 'Payment complete',
  expired: 'Expired',
  failed: 'Payment failed',
  refunded: 'Refunded',
  received: 'Received',
  remaining: 'Remaining',
  copyRemaining: 'Copy remaining amount',
};

addEnglish(enStatus);
