import { addEnglish } from '../i18n.js';

/** The picker's English (the other locales have these keys in their files). */
export const enPicker = {
  chooseCurrency: 'Choose a currency',
  search: 'Search currencies',
  noMatch: 'No currency matches your search',
  minimum: 'Minimum {amount}',
  // On the payment screen, but only after a pick.
  otherCurrency: 'Choose another currency',
};

addEnglish(enPicker);
