import { page } from './page.js';

// The hosted payment page's own script: the same components, rendered as a full page, outside the drop-in bundle
// so merchants' pages do not download the hosted-page code.
page();
