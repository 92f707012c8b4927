/**
 * Every English message of the checkout (popup and hosted page). The other locales are JSON files with these keys
 * (widget/locales/*.json, checked against this one by widget/i18n.test.ts), fetched only when a customer needs one.
 * Placeholders are `{name}`; messages are text, never HTML.
 */
export const en = {
  title: 'Pay with crypto',
  close: 'Close',
  loading: 'Loading…',
  chooseCurrency: 'Choose a currency',
  search: 'Search currencies',
  noMatch: 'No currency matches your search',
  minimum: 'Minimum {amount}',
  otherCurrency: 'Choose another currency',
  network: 'Network',
  sendExactly: 'Send exactly',
  address: 'Address',
  tag: 'Destination tag / memo',
  tagWarning: 'Include this tag, or your payment cannot be matched.',
  copyAmount: 'Copy amount',
  copyAddress: 'Copy address',
  copyTag: 'Copy tag',
  copyRemaining: 'Copy remaining amount',
  copied: 'Copied',
  qrAlt: 'Payment QR code',
  openWallet: 'Open in wallet',
  expiresIn: 'Quote expires in',
  waiting: 'Waiting for your payment',
  confirming: 'Payment seen, confirming: {n} of {m}',
  partially_paid: 'Partly paid: send the remaining {amount}',
  finished: 'Payment complete',
  expired: 'Expired',
  failed: 'Payment failed',
  refunded: 'Refunded',
  received: 'Received',
  remaining: 'Remaining',
  simulate: 'Simulate payment',
  testMode: 'Test mode',
  total: 'Total',
  successTitle: 'Payment received',
  successText: 'Thank you! Your payment is confirmed.',
  done: 'Done',
  redirecting: 'Returning to the store…',
  expiredTitle: 'This quote has expired',
  expiredText: 'Crypto prices move, so a quote holds for a limited time. Start again for a new one.',
  retry: 'Start again',
  errorTitle: 'Checkout unavailable',
  cancel: 'Cancel and return to the store',
};

export type Messages = typeof en;
export type MessageKey = keyof Messages;
