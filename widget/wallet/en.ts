/**
 * The English messages of wallet pay. They ship with the wallet chunk, not en.ts, so checkouts without a wallet
 * never download them; the other locales are widget/locales/wallet/*.json (checked by widget/i18n.test.ts),
 * fetched by the chunk when a customer needs one. Placeholders are `{name}`; messages are text, never HTML.
 */
export const walletEn = {
  payWith: 'Pay with {wallet}',
  payWithBrowserWallet: 'Pay with your browser wallet',
  confirmInWallet: 'Confirm the payment in your wallet…',
  sent: 'Transaction sent',
  viewOnExplorer: 'View on the block explorer',
  rejected: 'You cancelled in your wallet. Try again, or pay with the QR code.',
  balance: 'This wallet account does not hold enough {currency} for this payment and its network fee.',
  switch:
    'Your wallet did not switch to the payment’s network. Switch it there and try again, or pay with the QR code.',
  timeout: 'Your wallet did not answer in time. Try again, or pay with the QR code.',
  failed: 'Your wallet could not send the payment. Try again, or pay with the QR code.',
};

export type WalletMessages = typeof walletEn;
