// What the drop-in's framework alone costs: everything it imports from Preact and @preact/signals, bundled and
// minified the same way as core.js (bench/dropin.ts gzips it to split the script's size into parts).

export { batch, signal, useComputed, useSignal } from '@preact/signals';
export { h, render } from 'preact';
export { useEffect, useRef } from 'preact/hooks';
