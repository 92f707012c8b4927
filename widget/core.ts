/**
 * The checkout itself, as the ES module `core.js` that the script tag's loader (entry.ts) imports from next to
 * itself. What the popup needs only later (the picker, the closing screens, live status) is split into chunks
 * that this module imports when they are needed.
 */
export { createOpen } from './open.js';
