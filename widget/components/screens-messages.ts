import { addEnglish } from '../i18n.js';

/** The closing screens' English, in their chunk (the other locales have these keys in their files). */
export const enScreens = {
  successTitle: 'Payment received',
  successText: 'Thank you! Your payment is confirmed.',
  done: 'Done',
  redirecting: 'Returning to the store…',
  expiredTitle: 'This quote has expired',
  expiredText: 'Crypto prices move, so a quote holds for a limited time. Start again for a new one.',
  retry: 'Start again',
};

addEnglish(enScreens);
