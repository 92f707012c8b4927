// Imported so the checkout module is this page's base: what the page shares with it stays in checkout.module.js
// (one file both load) instead of moving to a chunk of its own that the drop-in would then need before its QR.
import './index.js';
import { page } from './page.js';

// The hosted payment page's own script (an ES module beside checkout.module.js): the same components, rendered as
// a full page. It runs on the checkout module and its chunks rather than a copy of them; merchants' pages never
// download the hosted-page code.
page();
